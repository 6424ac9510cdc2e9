// The registry in a terminal (`agent agents|tools|endpoints --stats`): one row per agent, tool or endpoint with its
// usage, and a line saying what was counted (the window, the cap when reached).
import type { AgentListing, EndpointListing, ToolListing } from '../core/listings';
import { lastHours, windowNote } from '../core/listings';
import type { HourStats } from '../core/usage-stats';
import { formatMs, formatUsd } from '../core/format';
import { shortTime } from './made-tools-format';

type Cell = string | number;

/** Columns padded to their widest cell; numbers to the right. */
function table(head: string[], rows: Cell[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells: Cell[]) =>
    cells
      .map((c, i) => (typeof c === 'number' ? String(c).padStart(widths[i]!) : String(c).padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)].join('\n');
}

const percent = (rate: number) => `${Math.round(rate * 1000) / 10}%`;

export function formatAgentListing(r: AgentListing): string {
  const rows = r.agents.map((a) => [
    a.goalId,
    a.source === 'chat' ? `chat (${a.provenance?.createdBy ?? '?'})` : a.source,
    a.conversations,
    a.turns,
    formatMs(a.p50TurnMs),
    formatMs(a.p95TurnMs),
    a.usage.costUsd === undefined ? '—' : formatUsd(a.usage.costUsd),
    a.usage.totalTokens,
    shortTime(a.lastUsed),
  ]);
  const head = ['agent', 'source', 'convs', 'turns', 'p50 turn', 'p95 turn', 'cost', 'tokens', 'last used'];
  const leftOut = r.problems.map((p) => `(left out: ${p})`);
  return [table(head, rows), ...leftOut, ...runsByLines(r), windowNote(r.window)].join('\n');
}

/** The runs schedules and webhook triggers started, one row each; nothing when none ran in the window. */
function runsByLines(r: AgentListing): string[] {
  if (!r.runsBy.length) return [];
  const rows = r.runsBy.map((s) => [`${s.source} ${s.name}`, s.runs, s.ok, s.failed, s.running, shortTime(s.lastRun)]);
  return ['', table(['started by', 'runs', 'ok', 'failed', 'running', 'last run'], rows)];
}

export function formatToolListing(r: ToolListing): string {
  const rows = r.tools.map((t) => [
    t.name,
    t.kind === 'made' ? `made v${t.version ?? t.madeVersion ?? '?'}` : t.kind,
    t.endpoint ?? '',
    t.calls,
    t.errors,
    percent(t.errorRate),
    formatMs(t.p50Ms),
    formatMs(t.p95Ms),
    shortTime(t.lastUsed),
  ]);
  const head = ['tool', 'kind', 'endpoint', 'calls', 'errors', 'error %', 'p50', 'p95', 'last used'];
  return [table(head, rows), windowNote(r.window)].join('\n');
}

export function formatEndpointListing(r: EndpointListing): string {
  const rows = r.endpoints.map((e) => [
    e.name,
    e.gone || !e.status ? 'gone' : e.status.replace('_', ' '),
    e.calls,
    e.errors,
    percent(e.errorRate),
    formatMs(e.p50Ms),
    formatMs(e.p95Ms),
    shortTime(e.lastUsed),
    hoursStrip(e.hours, Date.parse(r.window.until)),
  ]);
  const head = ['endpoint', 'status', 'calls', 'errors', 'error %', 'p50', 'p95', 'last used', 'last 24 h'];
  const lines = [table(head, rows)];
  if (r.registryError) lines.push(`registry: ${r.registryError}`);
  return [...lines, windowNote(r.window)].join('\n');
}

/** The last 24 hours, oldest first, a character an hour: `·` no calls, `▪` calls all answered, `x` some failed. */
export function hoursStrip(hours: HourStats[], until: number): string {
  return lastHours(hours, until)
    .map((h) => (!h.calls ? '·' : h.errors ? 'x' : '▪'))
    .join('');
}
