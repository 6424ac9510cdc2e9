// `agent tools prune --unused-for <duration> [--yes]`: which made tools nobody has called for that long (their calls
// read from Temporal's histories over exactly that window: client/listings.ts). It proposes,
// and with --yes disables them (`agent tools enable` brings one back): a made tool may be in a goal file or a running
// conversation the worker cannot see from here, so removing one is left to the user, one `agent tools remove <name>`
// at a time.
import type { MadeToolSummary } from '../core/made-tools';
import { madeToolState, shortTime, type MadeToolState } from './made-tools-format';

export interface UnusedMadeTool {
  name: string;
  /** The newest version of the name. */
  version: number;
  state: MadeToolState;
  /** Its last call in the window; null: none in it. */
  lastUsed: string | null;
  /** When its newest version was made (CreateTool's provenance); null for a file put there by hand. */
  madeAt: string | null;
  /** The command that removes it, every version. */
  command: string;
}

export interface PruneProposal {
  /** Tools unused (or, never used, made) before this time. */
  before: string;
  unused: UnusedMadeTool[];
  /** Not called in the window, with no record of when they were made: how long they have been idle is not known. */
  unknownAge: string[];
}

/**
 * Per name, the last use, or the making of its newest version when it was not called, against now − `seconds`.
 * `made` must carry its usage over (at least) that window (`Registry.madeTools`): a tool without is taken as unused.
 */
export function unusedMadeTools(made: MadeToolSummary[], seconds: number, now = new Date()): PruneProposal {
  const before = new Date(now.getTime() - seconds * 1000).toISOString();
  const names = [...new Set(made.map((t) => t.name))];
  const unused: UnusedMadeTool[] = [];
  const unknownAge: string[] = [];
  for (const name of names) {
    const versions = made.filter((t) => t.name === name);
    const newest = versions.reduce((a, b) => (b.version > a.version ? b : a));
    const lastUsed = versions.find((t) => t.usage?.lastUsed)?.usage?.lastUsed ?? null;
    const madeAt = newest.provenance?.createdAt ?? null;
    const idleSince = lastUsed ?? madeAt;
    if (!idleSince) unknownAge.push(name);
    else if (Date.parse(idleSince) < Date.parse(before))
      unused.push({
        name,
        version: newest.version,
        state: madeToolState(newest),
        lastUsed,
        madeAt,
        command: `agent tools remove ${name}`,
      });
  }
  return { before, unused, unknownAge };
}

export function formatPruneProposal(proposal: PruneProposal, unusedFor: string, disabled: string[] = []): string {
  const lines = disabled.length
    ? [
        `Disabled ${disabled.length} made tool(s) unused for ${unusedFor}: ${disabled.join(', ')} (agent tools enable <name> brings one back). To remove one, run:`,
      ]
    : proposal.unused.length
      ? [`${proposal.unused.length} made tool(s) unused for ${unusedFor}; nothing was removed. To remove one, run:`]
      : [`No made tool has been unused for ${unusedFor}.`];
  for (const t of proposal.unused) {
    const idle = t.lastUsed
      ? `last used ${shortTime(t.lastUsed)}`
      : `no call in ${unusedFor}, made ${shortTime(t.madeAt)}`;
    const state = t.state === 'current' ? '' : `, ${t.state}`;
    lines.push(`  ${t.command.padEnd(44)} # v${t.version}${state}, ${idle}`);
  }
  if (proposal.unknownAge.length)
    lines.push(`No call in ${unusedFor}, made at a time no file records: ${proposal.unknownAge.join(', ')}`);
  return lines.join('\n');
}
