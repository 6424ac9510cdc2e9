// `agent run <id>`: the run view in a terminal. The same words and figures as the web chat's (core/run-format.ts):
// each turn with its steps (status, facts, detail, the memories a model call was shown, why a retried attempt
// failed), delegates indented under their AskAgent step with their own turns, totals per turn and per branch.
import type { RunBranch, RunStep, RunTurn, RunView } from '../core/run-view';
import {
  branchTimes,
  KIND_TEXT,
  recalledText,
  STATUS_TEXT,
  stepParts,
  totalsParts,
  turnTimes,
  turnTitle,
} from '../core/run-format';
import { startedByText } from '../core/run-starter';

const INDENT = '    ';

export function formatRun(view: RunView, opts: { turns?: number } = {}): string {
  const now = Date.parse(view.at);
  return branchLines(view.root, '', now, false, opts.turns).join('\n');
}

function branchLines(branch: RunBranch, pad: string, now: number, delegate: boolean, last?: number): string[] {
  const head = delegate
    ? []
    : [
        `${pad}${branch.agentName || branch.goalId} (${branch.workflowId}) · ${status(branch.status)} · ` +
          totalsParts(branch.totals, branchTimes(branch, now)).join(' · '),
        ...(branch.startedBy ? [`${pad}  ${startedByText(branch.startedBy)}`] : []),
        ...(branch.temporalUrl ? [`${pad}  ${branch.temporalUrl}`] : []),
      ];
  const turns = last ? branch.turns.slice(-last) : branch.turns;
  const skipped = branch.turns.length - turns.length;
  return [
    ...head,
    ...(skipped ? [`${pad}(${skipped} earlier turn${skipped === 1 ? '' : 's'})`] : []),
    ...turns.flatMap((t) => turnLines(t, pad, now, delegate)),
  ];
}

function turnLines(turn: RunTurn, pad: string, now: number, delegate: boolean): string[] {
  const title = turnTitle(turn, delegate);
  return [
    `${pad}${title} · ${status(turn.status)} · ${totalsParts(turn.totals, turnTimes(turn, now)).join(' · ')}`,
    ...turn.steps.flatMap((s) => stepLines(s, pad + INDENT, now)),
  ];
}

function stepLines(step: RunStep, pad: string, now: number): string[] {
  const facts = step.branch ? [] : stepParts(step, now);
  const lines = [
    `${pad}${KIND_TEXT[step.kind].padEnd(8)} ${step.label} · ${status(step.status)}${facts.length ? ` · ${facts.join(' · ')}` : ''}`,
  ];
  if (step.detail && !step.branch) lines.push(`${pad}${' '.repeat(9)}${step.detail}`);
  if (step.memories?.length) lines.push(`${pad}${' '.repeat(9)}${recalledText(step.memories)}`);
  if (step.lastFailure) lines.push(`${pad}${' '.repeat(9)}attempt ${step.attempt ?? 2} after: ${step.lastFailure}`);
  if (step.branch) {
    const b = step.branch;
    lines[0] += ` · ${totalsParts(b.totals, branchTimes(b, now)).join(' · ')}`;
    if (b.temporalUrl) lines.push(`${pad}${' '.repeat(9)}${b.temporalUrl}`);
    lines.push(...branchLines(b, pad + INDENT, now, true));
  }
  return lines;
}

function status(s: RunStep['status']): string {
  return STATUS_TEXT[s];
}
