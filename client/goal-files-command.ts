// `agent goal-files` (and `goals`, its old name): the files of the worker's goals folder, disabled ones too; disable,
// enable or remove one; prune, which disables the chat-made agents no conversation used for that long.
import type { AgentClient } from './agent-client';
import { formatGoalsPrune, pruneGoals } from './goals-prune';
import { formatGoalFiles } from './terminal-format';
import { parseAge } from '../runtime/duration';
import { UserError } from '../core/user-error';

const ACTIONS = ['disable', 'enable', 'remove'] as const;
type Action = (typeof ACTIONS)[number];

/** `command`: the name it was called by, for its usage lines. */
export async function goalFilesCommand(
  command: string,
  [action, id]: string[],
  opts: { unusedFor?: string; yes?: boolean },
  c: AgentClient,
): Promise<{ human: string; data: unknown }> {
  if (action === 'prune') {
    if (!opts.unusedFor) throw new UserError(`usage: agent ${command} prune --unused-for <duration> [--yes]`);
    const pruned = await pruneGoals(c, parseAge(opts.unusedFor, '--unused-for'), !!opts.yes);
    return { human: formatGoalsPrune(pruned, opts.unusedFor), data: pruned };
  }
  if (action) {
    if (!(ACTIONS as readonly string[]).includes(action) || !id)
      throw new UserError(`usage: agent ${command} [disable|enable|remove <goalId>]`);
    const done = await c.manageGoal(action as Action, id);
    return {
      human: `${action === 'remove' ? 'removed' : `${action}d`} ${id} (${done.file})`,
      data: { action, ...done },
    };
  }
  const files = await c.goalFiles();
  return { human: formatGoalFiles(files), data: files };
}
