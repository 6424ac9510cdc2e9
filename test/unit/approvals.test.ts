// Who may let a tool run without asking: code (the tool's policy), the goal (tightening; a goal file's `never`
// reaches read-only tools only), and the operator naming tools in APPROVAL_EXEMPT_TOOLS.
import { needsApproval, unattendedDecision } from '../../workflows/decider/approvals';
import { createAgentWorker } from '../../worker/create-worker';
import { readWorkerSettings } from '../../worker/worker-settings';
import { book, goal, settings } from '../helpers/conversation-unit';

describe('needsApproval', () => {
  const wipe = { ...book, name: 'Wipe', approval: 'always' as const };

  it('asks for a state-changing tool under SHOW_CONFIRM unless the operator exempts it by name', () => {
    expect(needsApproval(book, goal, settings)).toBe(true);
    expect(needsApproval(book, goal, { ...settings, approvalExemptTools: ['Book'] })).toBe(false);
    expect(needsApproval(book, goal, { ...settings, approvalExemptTools: ['Other'] })).toBe(true);
  });

  it('keeps asking when the code or the goal says always, whatever the operator lists', () => {
    expect(needsApproval(wipe, goal, { ...settings, approvalExemptTools: ['Wipe'] })).toBe(true);
    expect(
      needsApproval(
        book,
        { ...goal, settings: { approval: 'always' } },
        { ...settings, approvalExemptTools: ['Book'] },
      ),
    ).toBe(true);
  });
});

describe('unattendedDecision: a scheduled run with nobody to approve', () => {
  const wipe = { ...book, name: 'Wipe', approval: 'always' as const };
  const run = (approvals: 'deny' | 'ask' | { auto: string[] }) => ({
    source: 'schedule' as const,
    name: 'nightly',
    approvals,
  });

  it('asks as usual outside a run or when the run says ask', () => {
    expect(unattendedDecision(undefined, book, goal)).toBeNull();
    expect(unattendedDecision(run('ask'), book, goal)).toBeNull();
  });

  it('denies with a reason the model reads, unless auto names the tool', () => {
    expect(unattendedDecision(run('deny'), book, goal)).toMatchObject({
      approve: false,
      reason: expect.stringMatching(/started by the schedule "nightly" with nobody to approve Book/),
    });
    expect(unattendedDecision(run({ auto: ['Book'] }), book, goal)).toEqual({ approve: true });
    expect(unattendedDecision(run({ auto: ['Other'] }), book, goal)).toMatchObject({ approve: false });
  });

  it("never loosens a tool's or a goal's always", () => {
    expect(unattendedDecision(run({ auto: ['Wipe'] }), wipe, goal)).toMatchObject({ approve: false });
    const strict = { ...goal, settings: { approval: 'always' as const } };
    expect(unattendedDecision(run({ auto: ['Book'] }), book, strict)).toMatchObject({ approve: false });
  });
});

describe('approval settings', () => {
  it('reads APPROVAL_EXEMPT_TOOLS, APPROVAL_TIMEOUT and IDLE_TIMEOUT with their defaults', () => {
    const defaults = readWorkerSettings({}).conversation;
    expect(defaults).toMatchObject({
      approvalExemptTools: [],
      approvalTimeoutSeconds: 86_400,
      idleTimeoutSeconds: 604_800,
    });
    const set = readWorkerSettings({
      APPROVAL_EXEMPT_TOOLS: 'BookPTO, fx__convert ,',
      APPROVAL_TIMEOUT: '90m',
      IDLE_TIMEOUT: '3600',
    }).conversation;
    expect(set).toMatchObject({
      approvalExemptTools: ['BookPTO', 'fx__convert'],
      approvalTimeoutSeconds: 5_400,
      idleTimeoutSeconds: 3_600,
    });
  });

  it('names the variable when a duration is bad', () => {
    expect(() => readWorkerSettings({ IDLE_TIMEOUT: 'a week' })).toThrow(
      /IDLE_TIMEOUT must be a duration of at least 1 s such as 90s, 15m, 24h or 7d, got "a week"/,
    );
    expect(() => readWorkerSettings({ APPROVAL_TIMEOUT: '0' })).toThrow(/APPROVAL_TIMEOUT must be a duration/);
  });
});

describe('APPROVAL_EXEMPT_TOOLS at worker start', () => {
  it('refuses a name that is neither a native tool nor an MCP tool name', async () => {
    const settings = readWorkerSettings({ AGENT_GOAL: 'goal_hr_pto', APPROVAL_EXEMPT_TOOLS: 'BookPTO,BookPTOO' });
    await expect(createAgentWorker({ connection: undefined as never, settings })).rejects.toThrow(
      /APPROVAL_EXEMPT_TOOLS: no native tool named BookPTOO \(MCP tools are named <server>__<tool>/,
    );
  });
});
