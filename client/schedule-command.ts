// `agent schedule create | list | describe | pause | unpause | trigger | backfill | delete`: scheduled agent runs on
// Temporal Schedules (client/schedules.ts). Its own options, read here: the CLI's table stays the conversation's.
import { parseArgs } from 'node:util';
import type { UnattendedApprovals } from '../core/conversation-types';
import { UserError } from '../core/user-error';
import type { AgentClient } from './agent-client';
import { Schedules, type Overlap, type ScheduleSummary } from './schedules';
import type { UnattendedRunRecord } from './unattended-runs';

export const SCHEDULE_USAGE =
  'usage: agent schedule create <name> --goal <id> (--cron "<expr>" | --every <2s|15m|1h>) --prompt "…" ' +
  '[--timezone <tz>] [--overlap skip|buffer-one|allow-all] [--catchup 1h] [--jitter 5m] ' +
  '[--approval deny|ask|auto --auto <tool> …] [--owner <owner>] [--note "…"] [--notify <url>] | list | describe <name> | ' +
  'pause <name> [--note "…"] | unpause <name> | trigger <name> | backfill <name> --from <iso> --to <iso> | delete <name>';

export async function scheduleCommand(
  argv: string[],
  connect: () => Promise<AgentClient>,
): Promise<{ human: string; data: unknown }> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      goal: { type: 'string' },
      cron: { type: 'string' },
      every: { type: 'string' },
      timezone: { type: 'string' },
      prompt: { type: 'string' },
      overlap: { type: 'string' },
      catchup: { type: 'string' },
      jitter: { type: 'string' },
      approval: { type: 'string' },
      auto: { type: 'string', multiple: true },
      owner: { type: 'string' },
      note: { type: 'string' },
      notify: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const [action, name, ...extra] = positionals;
  if (extra.length || (action !== 'list' && !name)) throw new UserError(SCHEDULE_USAGE);
  const agents = await connect();
  const schedules = new Schedules(agents.client, agents.taskQueue);
  switch (action) {
    case 'create': {
      if (!values.goal || !values.prompt) throw new UserError(`create needs --goal and --prompt. ${SCHEDULE_USAGE}`);
      await agents.requireGoal(values.goal);
      const made = await schedules.create({
        name: name!,
        goalId: values.goal,
        prompt: values.prompt,
        ...(values.cron ? { cron: values.cron } : {}),
        ...(values.every ? { every: values.every } : {}),
        ...(values.timezone ? { timezone: values.timezone } : {}),
        ...(values.overlap ? { overlap: overlapOf(values.overlap) } : {}),
        ...(values.catchup ? { catchup: values.catchup } : {}),
        ...(values.jitter ? { jitter: values.jitter } : {}),
        approvals: approvalsOf(values.approval, values.auto),
        ...(values.owner ? { owner: values.owner } : {}),
        ...(values.note ? { note: values.note } : {}),
        ...(values.notify ? { notify: values.notify } : {}),
      });
      return { human: `schedule ${name} created\n${format(made)}`, data: made };
    }
    case 'list': {
      const all = await schedules.list();
      return { human: all.length ? all.map(format).join('\n\n') : 'no schedules', data: all };
    }
    case 'describe': {
      const described = await schedules.describe(name!);
      const one = { ...described, runs: await schedules.runs(name!, 10, described) };
      return { human: [format(one), ...one.runs.map(formatRun)].join('\n'), data: one };
    }
    case 'pause':
    case 'unpause':
      await schedules[action](name!, values.note);
      return { human: `schedule ${name} ${action}d`, data: { name, paused: action === 'pause' } };
    case 'trigger':
      await schedules.trigger(name!);
      return { human: `schedule ${name}: a run starts now`, data: { name, triggered: true } };
    case 'backfill': {
      const [from, to] = [dateOf('--from', values.from), dateOf('--to', values.to)];
      await schedules.backfill(name!, from, to);
      return { human: `schedule ${name}: the runs due from ${values.from} to ${values.to} start now`, data: { name } };
    }
    case 'delete':
      await schedules.delete(name!);
      return { human: `schedule ${name} deleted (its runs stay readable)`, data: { name, deleted: true } };
    default:
      throw new UserError(SCHEDULE_USAGE);
  }
}

function approvalsOf(approval: string | undefined, tools: string[] | undefined): UnattendedApprovals {
  if (approval === undefined || approval === 'deny' || approval === 'ask') {
    if (tools?.length) throw new UserError('--auto names tools for --approval auto only');
    return approval ?? 'deny';
  }
  if (approval !== 'auto') throw new UserError(`--approval must be deny, ask or auto, got "${approval}"`);
  if (!tools?.length) throw new UserError('--approval auto needs the tools it may run unasked: --auto <tool> (repeat)');
  return { auto: tools };
}

function overlapOf(value: string): Overlap {
  if (value === 'skip' || value === 'buffer-one' || value === 'allow-all') return value;
  throw new UserError(`--overlap must be skip, buffer-one or allow-all, got "${value}"`);
}

function dateOf(flag: string, value: string | undefined): Date {
  const at = new Date(value ?? '');
  if (!value || Number.isNaN(at.getTime()))
    throw new UserError(`backfill needs ${flag} <ISO time>, got "${value ?? ''}"`);
  return at;
}

function format(s: ScheduleSummary): string {
  return [
    `${s.name}: ${s.goalId} — "${s.prompt}"${s.paused ? ` (paused${s.note ? `: ${s.note}` : ''})` : ''}`,
    `  next: ${s.nextRuns.slice(0, 3).join(', ') || '—'}`,
    `  recent: ${
      s.recentRuns
        .slice(0, 3)
        .map((r) => `${r.scheduledAt} ${r.conversationId}`)
        .join('; ') || '—'
    }`,
  ].join('\n');
}

/** One run and its outcome: `  sched-…-<time>  completed ok "<answer>" $0.0012 (notified)`. */
function formatRun(r: UnattendedRunRecord): string {
  const answer = r.summary === undefined ? '' : ` ${r.status ?? ''} "${r.summary.slice(0, 80)}"`;
  const cost = r.costUsd ? ` $${r.costUsd.toFixed(4)}` : '';
  const notified = r.delivered === undefined ? '' : r.delivered ? ' (notified)' : ' (notify failed)';
  return `  run ${r.conversationId}: ${r.state}${answer}${cost}${notified}`;
}
