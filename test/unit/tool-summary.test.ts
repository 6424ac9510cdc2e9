// A tool's description as a tool card in the web chat shows it: one sentence, one line.
import { toolSummary } from '../../core/format';

describe('toolSummary', () => {
  it('keeps the first sentence of the first line, and cuts a long one with an ellipsis', () => {
    expect(toolSummary('Converts an amount between currencies. Rates are live (MCP server "fx")')).toBe(
      'Converts an amount between currencies.',
    );
    expect(
      toolSummary(
        'Ask another agent to do a task and answer with its result.\nAgents you may ask:\n- goal_hr_pto: PTO assistant…',
      ),
    ).toBe('Ask another agent to do a task and answer with its result.');
    expect(toolSummary('Echoes back the input string')).toBe('Echoes back the input string');
    expect(toolSummary('Reads version 1.2 of the file. Then more.')).toBe('Reads version 1.2 of the file.');
    const long = toolSummary('x'.repeat(300));
    expect(long).toHaveLength(140);
    expect(long.endsWith('…')).toBe(true);
  });
});
