// `agent endpoints <name>` in the terminal, and the CLI's way of naming a server prompt (`--prompt fx/advice --arg
// k=v`): an endpoint's resources, templates and prompts, one per line, as a person scans them.
import type { EndpointFeatures, PromptRef } from '../core/mcp-features';
import { formatBytes } from '../core/tool-content';
import { UserError } from '../core/user-error';

export function formatEndpointFeatures(f: EndpointFeatures): string {
  const lines: string[] = [];
  const section = (title: string, items: string[], what: 'resources' | 'prompts') => {
    lines.push(`${title}:`);
    if (f.unsupported.includes(what)) lines.push(`  (${f.endpoint} offers no ${what})`);
    else if (!items.length) lines.push('  (none)');
    else lines.push(...items.map((i) => `  ${i}`));
  };
  section(
    'resources',
    f.resources.map(
      (r) =>
        `${r.uri}  ${r.title ?? r.name}${r.mimeType ? ` (${r.mimeType}${r.size !== undefined ? `, ${formatBytes(r.size)}` : ''})` : ''}${r.description ? ` — ${r.description}` : ''}`,
    ),
    'resources',
  );
  section(
    'resource templates',
    f.templates.map((t) => `${t.uriTemplate}  ${t.title ?? t.name}${t.description ? ` — ${t.description}` : ''}`),
    'resources',
  );
  section(
    'prompts',
    f.prompts.map((p) => {
      const args = p.arguments.map((a) => (a.required ? a.name : `[${a.name}]`)).join(' ');
      return `${f.endpoint}/${p.name}${args ? ` ${args}` : ''}${p.description ? ` — ${p.description}` : ''}`;
    }),
    'prompts',
  );
  return lines.join('\n');
}

/** `--prompt <endpoint>/<prompt>` and its `--arg k=v` options as a prompt reference. */
export function promptRef(named: string, args: string[] = []): PromptRef {
  const slash = named.indexOf('/');
  if (slash <= 0 || slash === named.length - 1)
    throw new UserError(`--prompt takes <endpoint>/<prompt>, e.g. everything/simple-prompt; got "${named}".`);
  const pairs = args.map((a) => {
    const eq = a.indexOf('=');
    if (eq <= 0) throw new UserError(`--arg takes name=value; got "${a}".`);
    return [a.slice(0, eq), a.slice(eq + 1)] as const;
  });
  return { endpoint: named.slice(0, slash), name: named.slice(slash + 1), args: Object.fromEntries(pairs) };
}
