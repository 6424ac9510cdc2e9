// One verdict helper: a target at most or at least, a measure that could not be taken, and the run's table.
import { judge, verdicts, verdictTable } from './verdict';

describe('judge', () => {
  it('records each verdict and answers its word; the table lists them, judging nothing in a quick run', () => {
    expect(judge('turn p50', 40, 50, { unit: 'ms' })).toBe('met');
    expect(judge('turn p95', 70, 50, { unit: 'ms' })).toBe('missed');
    expect(judge('hit rate', 0.9, 0.8, { atLeast: true })).toBe('met');
    expect(judge('RSS', Number.NaN, 250, { unit: 'MB' })).toBe('—');
    expect(verdicts().map((v) => [v.what, v.met])).toEqual([
      ['turn p50', true],
      ['turn p95', false],
      ['hit rate', true],
      ['RSS', false],
    ]);
    const full = verdictTable(false);
    expect(full.split('\n')[0]).toBe('Targets (4): 2 missed');
    expect(full).toMatch(/turn p95\s+70 ms\s+≤ 50 ms\s+MISSED/);
    expect(full).toMatch(/hit rate\s+0.9\s+≥ 0.8\s+met/);
    expect(verdictTable(true).split('\n')[0]).toBe('Targets (4): not judged in a --quick run (too few samples)');
  });
});
