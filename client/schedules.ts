// Scheduled agent runs on Temporal Schedules (never a timer loop of ours): each run is a conversation in task mode
// whose task is the schedule's prompt, owned by the schedule's owner, its tool calls that need approval answered by
// the schedule's policy (core/conversation-types.ts: UnattendedRun). Temporal keeps the schedule, its overlap and
// catch-up policies, pauses, backfills and its recent runs; the run's workflow id is `sched-<name>-<time>`.
import {
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleDescription,
  type ScheduleOptions,
} from '@temporalio/client';
import type { AgentGoalInput, UnattendedApprovals } from '../core/conversation-types';
import { UserError } from '../core/user-error';
import { UNATTENDED_NAME, unattendedInput } from './unattended';
import { unattendedRuns, type UnattendedRunRecord } from './unattended-runs';

export type Overlap = 'skip' | 'buffer-one' | 'allow-all';

export interface ScheduleRequest {
  /** Letters, digits, - and _: the schedule's id is `agent-schedule-<name>`, its runs `sched-<name>-<time>`. */
  name: string;
  goalId: string;
  prompt: string;
  /** A cron expression (`0 8 * * MON-FRI`), or an interval (`every`: `2s`, `15m`, `1h`): one of them. */
  cron?: string;
  every?: string;
  timezone?: string;
  overlap?: Overlap;
  /** How late a missed run may still start (after an outage); Temporal's default is a year. */
  catchup?: string;
  jitter?: string;
  approvals?: UnattendedApprovals;
  owner?: string;
  note?: string;
  /** Where each run's outcome is POSTed when it ends (retried with backoff; Idempotency-Key: the run's id). */
  notify?: string;
}

export interface ScheduleSummary {
  name: string;
  goalId: string;
  prompt: string;
  owner?: string;
  approvals: UnattendedApprovals;
  notify?: string;
  paused: boolean;
  note?: string;
  nextRuns: string[];
  /** The latest runs, newest first: when each was due and its conversation's id. */
  recentRuns: { scheduledAt: string; conversationId: string }[];
}

const OVERLAP = {
  skip: ScheduleOverlapPolicy.SKIP,
  'buffer-one': ScheduleOverlapPolicy.BUFFER_ONE,
  'allow-all': ScheduleOverlapPolicy.ALLOW_ALL,
};

export const scheduleId = (name: string) => `agent-schedule-${name}`;

export class Schedules {
  constructor(
    private readonly client: Client,
    private readonly taskQueue: string,
  ) {}

  async create(req: ScheduleRequest): Promise<ScheduleSummary> {
    if (!UNATTENDED_NAME.test(req.name))
      throw new UserError(`schedule name "${req.name}": letters, digits, - or _ (at most 48)`, 'invalid');
    if (!req.cron === !req.every) throw new UserError('a schedule needs --cron or --every (one of them)', 'invalid');
    const input = unattendedInput({
      goalId: req.goalId,
      prompt: req.prompt,
      owner: req.owner,
      run: {
        source: 'schedule',
        name: req.name,
        approvals: req.approvals ?? 'deny',
        ...(req.notify ? { notify: req.notify } : {}),
      },
    });
    const options: ScheduleOptions = {
      scheduleId: scheduleId(req.name),
      spec: {
        ...(req.cron ? { cronExpressions: [req.cron] } : { intervals: [{ every: req.every! as '1s' }] }),
        ...(req.timezone ? { timezone: req.timezone } : {}),
        ...(req.jitter ? { jitter: req.jitter as '1s' } : {}),
      },
      action: {
        type: 'startWorkflow',
        workflowType: 'AgentGoalWorkflow',
        workflowId: `sched-${req.name}`,
        taskQueue: this.taskQueue,
        args: [input],
      },
      policies: {
        overlap: OVERLAP[req.overlap ?? 'skip'],
        ...(req.catchup ? { catchupWindow: req.catchup as '1s' } : {}),
      },
      ...(req.note ? { state: { note: req.note } } : {}),
    };
    try {
      await this.client.schedule.create(options);
    } catch (err) {
      if ((err as Error).name === 'ScheduleAlreadyRunning')
        throw new UserError(`A schedule named ${req.name} exists already.`, 'refused');
      throw new UserError(`schedule ${req.name}: ${(err as Error).message}`, 'invalid');
    }
    return this.describe(req.name);
  }

  async describe(name: string): Promise<ScheduleSummary> {
    return summaryOf(name, await this.call(name, (h) => h.describe()));
  }

  /** Its latest runs, newest first, with their outcomes (the answer, its cost, whether `notify` got it); its owner's
   * only (a name deleted and taken again shows none of the earlier owner's). `known`: the schedule as just described. */
  async runs(name: string, limit = 10, known?: Pick<ScheduleSummary, 'owner'>): Promise<UnattendedRunRecord[]> {
    const { owner } = known ?? (await this.describe(name));
    return unattendedRuns(this.client, 'schedule', { name, limit, owner: owner ?? null });
  }

  async list(): Promise<ScheduleSummary[]> {
    const names: string[] = [];
    for await (const s of this.client.schedule.list()) {
      if (s.scheduleId.startsWith(scheduleId(''))) names.push(s.scheduleId.slice(scheduleId('').length));
    }
    return Promise.all(names.sort().map((n) => this.describe(n)));
  }

  async pause(name: string, note?: string): Promise<void> {
    await this.call(name, (h) => h.pause(note));
  }

  async unpause(name: string, note?: string): Promise<void> {
    await this.call(name, (h) => h.unpause(note));
  }

  /** A run now, whatever the spec says (the overlap policy still applies). */
  async trigger(name: string): Promise<void> {
    await this.call(name, (h) => h.trigger());
  }

  /** The runs the spec would have made between `from` and `to` (each started now). */
  async backfill(name: string, from: Date, to: Date): Promise<void> {
    if (!(from < to)) throw new UserError('backfill: --from must be before --to', 'invalid');
    await this.call(name, (h) => h.backfill([{ start: from, end: to, overlap: ScheduleOverlapPolicy.ALLOW_ALL }]));
  }

  /** The schedule ends; its finished runs stay readable as conversations. */
  async delete(name: string): Promise<void> {
    await this.call(name, (h) => h.delete());
  }

  private async call<T>(
    name: string,
    work: (h: ReturnType<Client['schedule']['getHandle']>) => Promise<T>,
  ): Promise<T> {
    try {
      return await work(this.client.schedule.getHandle(scheduleId(name)));
    } catch (err) {
      if (err instanceof ScheduleNotFoundError) throw new UserError(`No schedule ${name}.`, 'not_found');
      throw err;
    }
  }
}

function summaryOf(name: string, d: ScheduleDescription): ScheduleSummary {
  const action = d.action as { args?: AgentGoalInput[] };
  const input = action.args?.[0];
  return {
    name,
    goalId: input?.goalId ?? '',
    prompt: input?.task?.task ?? '',
    ...(input?.owner ? { owner: input.owner } : {}),
    approvals: input?.run?.approvals ?? 'deny',
    ...(input?.run?.notify ? { notify: input.run.notify } : {}),
    paused: d.state.paused,
    ...(d.state.note ? { note: d.state.note } : {}),
    nextRuns: d.info.nextActionTimes.map((t) => t.toISOString()),
    recentRuns: [...d.info.recentActions].reverse().map((a) => ({
      scheduledAt: a.scheduledAt.toISOString(),
      conversationId: a.action.type === 'startWorkflow' ? a.action.workflow.workflowId : '',
    })),
  };
}
