// `agent tools` in all its forms: the tools a goal sees, or every MCP tool and made tool; the catalog as Markdown;
// the made tools' files (--made, --code), their usage (--stats); disable|enable|remove <name>; and prune, which
// proposes (and with --yes disables). Arguments are checked before anything connects, so a typo costs no round trip to the worker.
import type { MadeToolSummary } from '../core/made-tools';
import type { AgentClient } from './agent-client';
import { catalogMarkdown, catalogSnapshot } from './catalog-doc';
import { formatMadeTools } from './made-tools-format';
import { listingsOf } from './listings';
import { formatToolListing } from './listing-format';
import { formatPruneProposal, unusedMadeTools } from './made-tools-prune';
import { parseAge } from '../runtime/duration';
import { formatTools } from './terminal-format';
import { UserError } from '../core/user-error';

export const TOOLS_USAGE =
  'usage: agent tools [--goal <id>] [--markdown] [--made [--code]] [--stats [--since <duration>]] | ' +
  'agent tools disable|enable|remove <name> | agent tools prune --unused-for <duration> [--yes]';

const ACTIONS = ['disable', 'enable', 'remove'] as const;
type Action = (typeof ACTIONS)[number];

export interface ToolsOptions {
  goal?: string;
  markdown?: boolean;
  made?: boolean;
  stats?: boolean;
  code?: boolean;
  /** --stats: the window, a duration back from now or an ISO time. */
  since?: string;
  /** The CLI's environment (REGISTRY_MAX_EXECUTIONS). */
  env?: NodeJS.ProcessEnv;
  unusedFor?: string;
  /** prune: disable what it proposes. */
  yes?: boolean;
}

/** Prints a human answer, or `data` as JSON with --json. */
export type Out = (human: string, data: unknown) => void;

export async function toolsCommand(
  rest: string[],
  opts: ToolsOptions,
  connect: () => Promise<AgentClient>,
  out: Out,
  write: (text: string) => void,
): Promise<void> {
  const [sub, name, ...extra] = rest;
  if (sub && (ACTIONS as readonly string[]).includes(sub)) {
    if (!name || extra.length) throw new UserError(TOOLS_USAGE);
    const action = sub as Action;
    // An unknown name comes back as the worker's own sentence (naming its tools folder).
    const versions = await (await connect()).manageMadeTool(action, name);
    const done = action === 'remove' ? 'removed' : `${action}d`;
    out(`${done} ${name} (${versions.length ? versions.map((v) => `v${v.version}`).join(', ') : 'every version'})`, {
      action,
      name,
      versions,
    });
    return;
  }
  if (sub === 'prune') {
    if (name || !opts.unusedFor) throw new UserError(`prune needs --unused-for <duration>. ${TOOLS_USAGE}`);
    const seconds = parseAge(opts.unusedFor, '--unused-for');
    const client = await connect();
    // Used in that time or not: the usage over exactly that window.
    const proposal = unusedMadeTools(await listingsOf(client, opts.env ?? {}).madeTools(opts.unusedFor), seconds);
    const disabled: string[] = [];
    if (opts.yes)
      for (const t of proposal.unused.filter((u) => u.state !== 'disabled')) {
        await client.manageMadeTool('disable', t.name);
        disabled.push(t.name);
      }
    out(formatPruneProposal(proposal, opts.unusedFor, disabled), { unusedFor: opts.unusedFor, ...proposal, disabled });
    return;
  }
  if (sub) throw new UserError(TOOLS_USAGE);

  const c = await connect();
  if (opts.markdown) {
    write(catalogMarkdown(await catalogSnapshot(c), { taskQueue: c.taskQueue, generatedAt: new Date() }));
    return;
  }
  if (opts.made || opts.code) {
    const made = opts.stats ? await listingsOf(c, opts.env ?? {}).madeTools(opts.since) : await c.madeTools();
    out(formatMadeTools(made, { code: opts.code }), made);
    return;
  }
  if (opts.stats) {
    const registry = await listingsOf(c, opts.env ?? {}).tools(opts.since);
    const tools = opts.goal ? registry.tools.filter((t) => t.agents.includes(opts.goal!)) : registry.tools;
    out(formatToolListing({ ...registry, tools }), { ...registry, tools });
    return;
  }
  // An unknown goal comes back from the worker as its one UnknownGoal message.
  const { catalog, tools } = await c.catalog(opts.goal);
  // A goal's list has its made tools already; without one, the made tools join the MCP tools.
  if (opts.goal) return out(formatTools(tools, catalog), { catalog, tools });
  const made = await madeOrWhyNot(c);
  out(formatTools(tools, catalog, made), { catalog, tools, made: Array.isArray(made) ? made : [] });
}

/** A worker that cannot list made tools (no tools folder) still lists its MCP tools, saying why the others are not. */
async function madeOrWhyNot(c: AgentClient): Promise<MadeToolSummary[] | string> {
  try {
    return await c.madeTools();
  } catch (err) {
    if (err instanceof UserError) return err.message;
    throw err;
  }
}
