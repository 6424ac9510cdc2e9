// What schedules (client/schedules.ts) and webhook triggers (api/triggers/) start alike: a conversation in task mode
// whose one task is their prompt, its approvals by their policy, its outcome optionally POSTed to a `notify` URL.
import type { AgentGoalInput, UnattendedRun } from '../core/conversation-types';
import type { BlobRef } from '../core/blobs';
import { UserError } from '../core/user-error';

/** A schedule's or a trigger's name: a part of its runs' workflow ids (client/unattended-runs.ts). */
export const UNATTENDED_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,47}$/;

export interface UnattendedStart {
  goalId: string;
  prompt: string;
  owner?: string;
  run: UnattendedRun;
  /** Files the task comes with (a webhook's body). */
  attachments?: BlobRef[];
}

export function unattendedInput({ goalId, prompt, owner, run, attachments }: UnattendedStart): AgentGoalInput {
  if (!prompt.trim()) throw new UserError(`${run.source} ${run.name} needs its prompt`, 'invalid');
  if (run.notify) checkNotifyUrl(run.notify);
  return {
    goalId,
    ...(owner ? { owner } : {}),
    task: { task: prompt.trim(), depth: 0, ...(attachments?.length ? { attachments } : {}) },
    run,
  };
}

/** A `notify` URL: http(s) only, where a run's outcome is POSTed. */
export function checkNotifyUrl(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol))
    throw new UserError(`notify: "${url}" is not an http(s) URL`, 'invalid');
  return url;
}
