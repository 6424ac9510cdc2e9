// What the registry pages count (agents, tools, endpoints: calls, errors, turn and call times, cost, last use; the runs
// each schedule and webhook trigger started), summed over runs folded from Temporal's histories (core/run-view.ts). Pure: the client reads and folds the runs; every side
// (CLI, API, web) shows the same figures because they come from here.
import type { RunBranch, RunStep } from './run-view';
import { NO_USAGE, spanMs } from './run-view';
import type { Usage } from './types';
import { addUsage } from './usage';
import { runsByStarter, type StarterStats } from './run-starter';

/** Which runs were counted: those active since `since`, at most `cap` of them (newest first). */
export interface StatsWindow {
  since: string;
  until: string;
  /** Executions read (each continue-as-new run and each delegate is one). */
  executions: number;
  cap: number;
  /** More executions fell in the window than the cap: the oldest were left out. */
  capped: boolean;
}

export interface AgentStats {
  goalId: string;
  agentName: string;
  /** Workflows that ran this agent: conversations, and delegates' tasks (counted in `delegated` too). */
  conversations: number;
  delegated: number;
  turns: number;
  /** A finished turn's time, waits for the user (approvals, questions) left out. */
  p50TurnMs: number | null;
  p95TurnMs: number | null;
  modelCalls: number;
  toolCalls: number;
  /** Tokens, and dollars at the prices the worker had when each call was made. */
  usage: Usage;
  lastUsed: string | null;
}

/** A tool's calls, errors and times: one shape for every kind of tool (native, MCP, HTTP, made, builtin). */
export interface ToolStats {
  name: string;
  /** The MCP server or HTTP API the tool belongs to. */
  endpoint?: string;
  /** The newest version of a made tool that ran. */
  madeVersion?: number;
  calls: number;
  /** Calls that failed or answered an error (a tool error, invalid input). */
  errors: number;
  errorRate: number;
  p50Ms: number | null;
  p95Ms: number | null;
  lastUsed: string | null;
}

/** One hour of an endpoint's calls: its health history. */
export interface HourStats {
  /** The hour's start, ISO. */
  hour: string;
  calls: number;
  errors: number;
}

export interface EndpointStats extends Omit<ToolStats, 'endpoint' | 'madeVersion'> {
  /** The hours with calls, oldest first. */
  hours: HourStats[];
  lastError?: string;
}

export interface UsageStats {
  window: StatsWindow;
  agents: AgentStats[];
  tools: ToolStats[];
  endpoints: EndpointStats[];
  /** The runs schedules and webhook triggers started (core/run-starter.ts), by schedule and trigger. */
  runsBy: StarterStats[];
}

/** Step kinds that are a tool's call: a tool's activity, SearchTools, a draft's check or write, AskAgent. */
const TOOL_KINDS = new Set<RunStep['kind']>(['tool', 'search', 'draft', 'delegate']);
const HOUR_MS = 3_600_000;

/** The nearest-rank percentile of ascending `sorted` (`q` in 0..1); null when there is nothing. */
export function percentile(sorted: number[], q: number): number | null {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** The tool a step called, by the name the tools' lists use. */
export function toolNameOf(step: RunStep): string {
  if (step.kind === 'delegate') return 'AskAgent';
  return step.label;
}

/** The endpoint a tool step called: the MCP server or HTTP API its call named, else the catalog's (`endpointOf`). */
function endpointOfStep(step: RunStep, endpointOf: (tool: string) => string | undefined): string | undefined {
  return step.endpoint ?? endpointOf(step.label);
}

interface Tally {
  times: number[];
  calls: number;
  errors: number;
  lastUsed: string | null;
  lastError?: string;
}

const tally = (): Tally => ({ times: [], calls: 0, errors: 0, lastUsed: null });

function count(t: Tally, step: RunStep, now: number): void {
  t.calls++;
  if (step.status === 'failed') {
    t.errors++;
    const why = step.error ?? step.detail;
    if (why) t.lastError = why;
  }
  if (step.endedAt) t.times.push(spanMs(step.startedAt, step.endedAt, now));
  if (!t.lastUsed || step.startedAt > t.lastUsed) t.lastUsed = step.startedAt;
}

function figures(t: Tally): Omit<ToolStats, 'name'> {
  const sorted = [...t.times].sort((a, b) => a - b);
  return {
    calls: t.calls,
    errors: t.errors,
    errorRate: t.calls ? t.errors / t.calls : 0,
    p50Ms: percentile(sorted, 0.5),
    p95Ms: percentile(sorted, 0.95),
    lastUsed: t.lastUsed,
  };
}

/** An agent's figures before any use. */
export const NO_AGENT_STATS: Readonly<Omit<AgentStats, 'goalId' | 'agentName'>> = {
  conversations: 0,
  delegated: 0,
  turns: 0,
  p50TurnMs: null,
  p95TurnMs: null,
  modelCalls: 0,
  toolCalls: 0,
  usage: NO_USAGE,
  lastUsed: null,
};

/**
 * Sums runs into the registry's figures. Each branch is one execution (delegates are their own; a branch's totals are
 * its own), so each step counts once. Only what started at or after `window.since` counts.
 */
export function usageStats(
  branches: RunBranch[],
  window: StatsWindow,
  opts: {
    endpointOf?: (tool: string) => string | undefined;
    /** The workflow ids that are delegates (Temporal's list knows their parent). */
    delegates?: Set<string>;
    now?: number;
  } = {},
): UsageStats {
  const now = opts.now ?? Date.parse(window.until);
  const endpointOf = opts.endpointOf ?? (() => undefined);
  const agents = new Map<string, AgentStats & { ids: Set<string>; delegates: Set<string>; times: number[] }>();
  const tools = new Map<string, Tally & { endpoint?: string; madeVersion?: number }>();
  const endpoints = new Map<string, Tally & { hours: Map<number, HourStats> }>();

  const agentOf = (goalId: string, agentName: string) => {
    let agent = agents.get(goalId);
    if (!agent) {
      agent = {
        goalId,
        agentName: agentName || goalId,
        ...NO_AGENT_STATS,
        usage: { ...NO_USAGE },
        ids: new Set(),
        delegates: new Set(),
        times: [],
      };
      agents.set(goalId, agent);
    }
    if (agentName) agent.agentName = agentName;
    return agent;
  };

  for (const b of branches) {
    for (const turn of b.turns) {
      // The turn counts for the agent that answered it (a conversation may switch agents).
      const agent = agentOf(turn.goalId || b.goalId || '(unknown)', turn.agentName || b.agentName);
      const steps = turn.steps.filter((s) => s.startedAt >= window.since);
      // A continued run opens with an empty turn 0: no turn of the user's. A prompt is one, even when it was queued
      // behind another and the steps that answered it landed in the last prompt's turn; its time is not known then.
      if (turn.startedAt >= window.since && (turn.index > 0 || turn.steps.length)) {
        agent.ids.add(b.workflowId);
        agent.turns++;
        if (turn.steps.length && turn.status !== 'running' && turn.status !== 'waiting')
          agent.times.push(Math.max(0, turn.totals.durationMs - turn.totals.waitMs));
        if (!agent.lastUsed || turn.startedAt > agent.lastUsed) agent.lastUsed = turn.startedAt;
      }
      for (const s of steps) {
        if (s.usage) agent.usage = addUsage(agent.usage, s.usage);
        if (s.kind === 'model') agent.modelCalls++;
        if (!TOOL_KINDS.has(s.kind)) continue;
        agent.toolCalls++;
        const name = toolNameOf(s);
        const tool = tools.get(name) ?? { ...tally() };
        tools.set(name, tool);
        count(tool, s, now);
        if (s.madeVersion) tool.madeVersion = Math.max(tool.madeVersion ?? 0, s.madeVersion);
        const endpoint = endpointOfStep(s, endpointOf);
        if (!endpoint) continue;
        tool.endpoint = endpoint;
        const e = endpoints.get(endpoint) ?? { ...tally(), hours: new Map<number, HourStats>() };
        endpoints.set(endpoint, e);
        count(e, s, now);
        const hour = Math.floor(Date.parse(s.startedAt) / HOUR_MS) * HOUR_MS;
        const h = e.hours.get(hour) ?? { hour: new Date(hour).toISOString(), calls: 0, errors: 0 };
        e.hours.set(hour, h);
        h.calls++;
        if (s.status === 'failed') h.errors++;
      }
    }
    if (opts.delegates?.has(b.workflowId))
      for (const agent of agents.values()) if (agent.ids.has(b.workflowId)) agent.delegates.add(b.workflowId);
  }

  return {
    window,
    agents: [...agents.values()]
      .filter((a) => a.ids.size)
      .map(({ ids, delegates, times, ...a }) => {
        const sorted = [...times].sort((x, y) => x - y);
        return {
          ...a,
          conversations: ids.size,
          delegated: delegates.size,
          p50TurnMs: percentile(sorted, 0.5),
          p95TurnMs: percentile(sorted, 0.95),
        };
      })
      .sort(byName((a) => a.goalId)),
    tools: [...tools.entries()]
      .map(([name, t]) => ({
        name,
        ...(t.endpoint ? { endpoint: t.endpoint } : {}),
        ...(t.madeVersion ? { madeVersion: t.madeVersion } : {}),
        ...figures(t),
      }))
      .sort(byName((t) => t.name)),
    endpoints: [...endpoints.entries()]
      .map(([name, e]) => ({
        name,
        ...figures(e),
        ...(e.lastError ? { lastError: e.lastError } : {}),
        hours: [...e.hours.values()].sort((x, y) => x.hour.localeCompare(y.hour)),
      }))
      .sort(byName((e) => e.name)),
    runsBy: runsByStarter(branches, window.since),
  };
}

function byName<T>(key: (t: T) => string): (a: T, b: T) => number {
  return (a, b) => key(a).localeCompare(key(b));
}
