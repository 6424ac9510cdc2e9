// Whether a run did what its scenario expects: each expectation that does not hold is one line of the report, saying
// what was expected and what happened. Also the run's tool-choice accuracy (the expected calls made) and argument
// accuracy (of those, the ones with the expected arguments).
import type { Expectations, Scenario, StateCheck, ToolExpectation } from './scenario';
import { mismatch, show } from './match';
import type { RunObservation, ToolCallSeen } from './observation';

export interface Verdict {
  passed: boolean;
  failures: string[];
  /** Expected tool calls made / expected; null when the scenario expects none. */
  toolChoice: number | null;
  /** Of the expected calls made that name arguments, those with the expected ones; null when there are none. */
  argAccuracy: number | null;
}

export function judge(scenario: Scenario, seen: RunObservation): Verdict {
  const expect = scenario.expect;
  const failures: string[] = seen.error ? [seen.error] : [];
  const tools = checkTools(expect.tools, seen.toolCalls);
  failures.push(...tools.failures);
  failures.push(...checkNotCalled(expect.notCalled, seen.toolCalls));
  if (expect.approvals) {
    const want = expect.approvals.map((a) => `${a.tool} ${a.decision}`);
    const got = seen.approvals.map((a) => `${a.tool} ${a.decision}`);
    if (want.join() !== got.join())
      failures.push(`approvals: expected [${want.join(', ')}], got [${got.join(', ') || 'none asked'}]`);
  }
  for (const check of expect.state) {
    const miss = checkState(check, seen.state);
    if (miss) failures.push(`state of ${check.dataset}: ${miss}`);
  }
  failures.push(...checkReply(expect.reply, seen.replies.at(-1) ?? ''));
  if (expect.ended !== undefined && expect.ended !== seen.ended)
    failures.push(expect.ended ? 'the conversation did not end (no CompleteGoal)' : 'the conversation ended');
  if (expect.maxSteps !== undefined && seen.steps > expect.maxSteps)
    failures.push(`${seen.steps} model calls, more than maxSteps ${expect.maxSteps}`);
  return { passed: failures.length === 0, failures, toolChoice: tools.choice, argAccuracy: tools.args };
}

/**
 * Each expected call is matched to a call of its own: first those with the expected arguments (and outcome), then the
 * rest to the remaining calls of their tool, so one wrong call is reported as wrong arguments, not as a missing call.
 */
function checkTools(expected: ToolExpectation[], calls: ToolCallSeen[]) {
  const argsMiss = (want: ToolExpectation, c: ToolCallSeen) =>
    want.args ? mismatch(want.args, c.args, want.match) : null;
  const used = new Set<ToolCallSeen>();
  const matched = new Map<ToolExpectation, ToolCallSeen>();
  const pick = (want: ToolExpectation, fits: (c: ToolCallSeen) => boolean) => {
    if (matched.has(want)) return;
    const call = calls.find((c) => c.tool === want.tool && !used.has(c) && fits(c));
    if (!call) return;
    used.add(call);
    matched.set(want, call);
  };
  for (const want of expected) pick(want, (c) => !argsMiss(want, c) && (!want.outcome || c.outcome === want.outcome));
  for (const want of expected) pick(want, (c) => !argsMiss(want, c));
  for (const want of expected) pick(want, () => true);

  const failures: string[] = [];
  let withArgs = 0;
  let argsRight = 0;
  for (const want of expected) {
    const call = matched.get(want);
    if (!call) {
      const same = calls.filter((c) => c.tool === want.tool).length;
      const made = calls.map((c) => c.tool);
      failures.push(
        same
          ? `another ${want.tool} call was expected (${show(want.args ?? {})}); it was called ${same} time(s)`
          : `${want.tool} was not called (calls made: ${made.length ? made.join(', ') : 'none'})`,
      );
      continue;
    }
    if (want.args) {
      withArgs++;
      const miss = argsMiss(want, call);
      if (miss) failures.push(`${want.tool} arguments (${want.match}): ${miss}`);
      else argsRight++;
    }
    if (want.outcome && call.outcome !== want.outcome)
      failures.push(`${want.tool} ended ${call.outcome}, expected ${want.outcome} (args ${show(call.args)})`);
  }
  return {
    failures,
    choice: expected.length ? matched.size / expected.length : null,
    args: withArgs ? argsRight / withArgs : null,
  };
}

/** A call that ran (ok, or failed inside the tool): one refused by the user or with bad arguments did not. */
function checkNotCalled(tools: string[], calls: ToolCallSeen[]): string[] {
  return calls
    .filter((c) => tools.includes(c.tool) && (c.outcome === 'ok' || c.outcome === 'tool_error'))
    .map((c) => `${c.tool} ran (${c.outcome}, args ${show(c.args)}) but must not`);
}

function checkState(check: StateCheck, state: Record<string, unknown>): string | null {
  const data = state[check.dataset];
  const touched = Object.keys(state);
  const absent = () => `no tool used it (datasets used: ${touched.length ? touched.join(', ') : 'none'})`;
  if (check.find) {
    if (data === undefined) return check.count === 0 ? null : absent();
    if (!Array.isArray(data)) return `find needs a list, and it is ${show(data)}`;
    const items = data.filter((item) => !mismatch(check.find, item));
    if (check.count !== undefined && items.length !== check.count)
      return `expected ${check.count} item(s) like ${show(check.find)}, found ${items.length}`;
    if (check.match === undefined) return null;
    if (!items.length) return `no item like ${show(check.find)} (items: ${show(data)})`;
    for (const item of items) {
      const miss = mismatch(check.match, item);
      if (miss) return `the item like ${show(check.find)}: ${miss}`;
    }
    return null;
  }
  if (check.count !== undefined) {
    const n = data === undefined ? 0 : Array.isArray(data) ? data.length : NaN;
    if (Number.isNaN(n)) return `count needs a list, and it is ${show(data)}`;
    if (n !== check.count) return `expected ${check.count} item(s), found ${n}: ${show(data)}`;
  }
  if (check.match === undefined) return null;
  if (data === undefined) return absent();
  return mismatch(check.match, data);
}

function checkReply(want: Expectations['reply'], reply: string): string[] {
  if (!want) return [];
  const lower = reply.toLowerCase();
  const quoted = show(reply, 240);
  const failures = want.contains
    .filter((w) => !lower.includes(w.toLowerCase()))
    .map((w) => `the last reply does not contain "${w}": ${quoted}`);
  failures.push(
    ...want.notContains
      .filter((w) => lower.includes(w.toLowerCase()))
      .map((w) => `the last reply contains "${w}": ${quoted}`),
  );
  if (want.matches && !new RegExp(want.matches, 'i').test(reply))
    failures.push(`the last reply does not match /${want.matches}/i: ${quoted}`);
  return failures;
}
