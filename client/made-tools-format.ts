// How made tools (CreateTool's, in the worker's TOOLS_DIR) read in a terminal: among the other tools (`agent tools`),
// file by file with where each came from and, with --stats, how much it is used (`agent tools --made [--stats]`).
import type { MadeToolSummary, MadeToolUsage } from '../core/made-tools';

/** Whether a file is the version goals get, set aside, failing its check, or a working version a newer one replaced. */
export type MadeToolState = 'current' | 'disabled' | 'broken' | 'older';

export function madeToolState(t: MadeToolSummary): MadeToolState {
  if (t.problems) return 'broken';
  if (t.disabled) return 'disabled';
  return t.current ? 'current' : 'older';
}

/** The mark a made tool carries wherever tools are listed: which version of it this is. */
export function madeMark(version: number | undefined): string {
  return `[made v${version ?? '?'}]`;
}

/** A time as the CLI prints it: `2026-11-25 21:32` (UTC, as the files record it). */
export function shortTime(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 16).replace('T', ' ') : 'never';
}

/**
 * The made tools beside the MCP tools of `agent tools`: the versions on offer, in the columns of formatTools, and one
 * line naming the files that are not (disabled or broken), which `agent tools --made` explains.
 */
export function madeToolLines(made: MadeToolSummary[]): string[] {
  const lines = made
    .filter((t) => t.current)
    .map((t) => `${t.name.padEnd(32)} ${madeMark(t.version).padEnd(28)} approval: never   ${t.description ?? ''}`);
  const names = new Set(made.filter((t) => t.current).map((t) => t.name));
  // A name with a working version is on offer: its older versions are no news here.
  const out = made
    .filter((t) => !names.has(t.name) && !t.current)
    .map((t) => `${t.name} v${t.version} (${madeToolState(t)})`);
  if (out.length) lines.push(`made tools not offered: ${out.join(', ')} (agent tools --made says why)`);
  return lines;
}

/** `agent tools --made`: every file, newest version first per name, with its state, description and provenance. */
export function formatMadeTools(made: MadeToolSummary[], opts: { code?: boolean } = {}): string {
  if (!made.length) return '(no made tools)';
  return made
    .map((t) => {
      const state = madeToolState(t);
      const lines = [`${t.name} v${t.version}  ${state}${t.description ? `  ${t.description}` : ''}`];
      if (t.problems) lines.push(...t.problems.map((p) => `  problem: ${p}`));
      const p = t.provenance;
      if (p) {
        lines.push(
          `  made by ${p.createdBy} at ${shortTime(p.createdAt)}${p.model ? ` (model ${p.model})` : ''}: "${p.request}"`,
        );
      } else if (!t.problems) lines.push('  made by hand (no provenance in the file)');
      if (t.usage) lines.push(`  used: ${usageText(t.usage)}`);
      lines.push(`  file: ${t.file}`);
      if (opts.code && t.code) lines.push('  code:', ...t.code.split('\n').map((l) => `    │ ${l}`));
      return lines.join('\n');
    })
    .join('\n');
}

function usageText(u: MadeToolUsage): string {
  if (!u.calls) return 'never';
  const times = u.p50Ms === null ? '' : `, p50 ${u.p50Ms} ms, p95 ${u.p95Ms} ms`;
  return `${u.calls} call(s), ${u.errors} error(s)${times}, last ${shortTime(u.lastUsed)}`;
}
