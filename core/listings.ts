// The registry pages' rows: each agent, tool and endpoint the worker serves (or that ran in the window), where it comes
// from, and its usage (core/usage-stats.ts). What GET /api/agents?stats=1, /api/tools?stats=1,
// /api/endpoints?stats=1, `agent agents|tools|endpoints --stats` and the web's #/agents, #/tools, #/endpoints show.
import type { AgentStats, EndpointStats, HourStats, StatsWindow, ToolStats } from './usage-stats';
import type { StarterStats } from './run-starter';
import type { EndpointStatus, GoalProvenance, ToolSpec } from './types';
import type { ToolProvenance } from './made-tools';

/** `code`: shipped in goals/code; `file`: a hand-written goal file; `chat`: a file CreateAgent wrote; `gone`: ran in
 * the window but the worker no longer serves it. */
export type AgentSource = 'code' | 'file' | 'chat' | 'gone';

export interface AgentRow extends Omit<AgentStats, 'agentName'> {
  agentName: string;
  description: string;
  category: string;
  source: AgentSource;
  /** The goal file, for `file` and `chat`. */
  file?: string;
  provenance?: GoalProvenance;
  /** The tools a conversation with it gets now, and the agents it may ask (AskAgent). */
  tools: string[];
  delegates: string[];
}

/** `unknown`: ran in the window, but the worker offers no tool of that name now. */
export type ToolRowKind = ToolSpec['kind'] | 'unknown';

export interface ToolRow extends ToolStats {
  kind: ToolRowKind;
  description: string;
  /** The agents offered it now. */
  agents: string[];
  /** A made tool's newest version on offer, and who made it. */
  version?: number;
  provenance?: ToolProvenance;
}

/** An endpoint's calls beside what discovery sees of it now; `gone`: called in the window but not in the registry
 * now, so without a status. */
export type EndpointRow = EndpointStats & Partial<Omit<EndpointStatus, 'name'>> & { gone?: boolean };

export interface AgentListing {
  window: StatsWindow;
  agents: AgentRow[];
  /** Goal files the worker left out, and why. */
  problems: string[];
  /** The runs each schedule and webhook trigger started in the window (the agents' conversations count them too). */
  runsBy: StarterStats[];
}

export interface ToolListing {
  window: StatsWindow;
  tools: ToolRow[];
}

export interface EndpointListing {
  window: StatsWindow;
  endpoints: EndpointRow[];
  registryError: string | null;
}

/** One line on what was counted: the window, and the cap when it was reached. */
export function windowNote(w: StatsWindow): string {
  const base = `since ${w.since.slice(0, 16).replace('T', ' ')} UTC: ${w.executions} workflow run(s) read`;
  return w.capped ? `${base} (the cap, ${w.cap}: older runs are left out)` : base;
}

/** The last `n` hours up to `until`, oldest first, each with its calls and errors (none: zero). */
export function lastHours(hours: HourStats[], until: number, n = 24): HourStats[] {
  const byHour = new Map(hours.map((h) => [Date.parse(h.hour), h]));
  const last = Math.floor(until / HOUR_MS) * HOUR_MS;
  return Array.from({ length: n }, (_, i) => {
    const at = last - (n - 1 - i) * HOUR_MS;
    return byHour.get(at) ?? { hour: new Date(at).toISOString(), calls: 0, errors: 0 };
  });
}

const HOUR_MS = 3_600_000;
