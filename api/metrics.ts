// The API's Prometheus metrics (GET /metrics, prom-client): requests by route and status, their latency, and what
// conversations wait for right now, counted from Temporal's visibility at each scrape (so every API replica reports
// the same truth, and no count drifts when a process dies): conversations running by state, approvals waiting.
import type { Context, Next } from 'hono';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AgentClient } from '../client/agent-client';
import { listQuery } from '../client/conversation-list';
import type { ConversationState } from '../core/conversation-types';

const RUNNING_STATES: ConversationState[] = ['waiting_for_user', 'working', 'awaiting_approval'];

export class ApiMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'agent_api_requests_total',
    help: 'API requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'agent_api_request_duration_seconds',
    help: 'API request latency by method and route (an event stream counts until it closes)',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  private readonly running = new Gauge({
    name: 'agent_conversations_running',
    help: 'Conversations running on this task queue, by state (delegates are part of their parent)',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });
  private readonly approvalsWaiting = new Gauge({
    name: 'agent_approvals_waiting',
    help: 'Conversations waiting for a user to approve or decline a tool call',
    registers: [this.registry],
  });

  constructor(private readonly agents: AgentClient) {
    collectDefaultMetrics({ register: this.registry });
  }

  /** One count per state per scrape, feeding both gauges. A server without the search attributes (registered by the
   * worker) cannot count by state: the states are left out and the approvals read NaN, rather than the scrape failing. */
  private async countRunning(): Promise<void> {
    this.running.reset();
    this.approvalsWaiting.reset();
    try {
      const counts = await Promise.all(
        RUNNING_STATES.map(
          async (state) =>
            [
              state,
              Number(
                (await this.agents.client.workflow.count(listQuery({ taskQueue: this.agents.taskQueue, state }))).count,
              ),
            ] as const,
        ),
      );
      for (const [state, n] of counts) this.running.set({ state }, n);
      this.approvalsWaiting.set(counts.find(([state]) => state === 'awaiting_approval')![1]);
    } catch {
      this.approvalsWaiting.set(NaN);
    }
  }

  /** Hono middleware: counts and times each request under its route pattern (never the raw path: ids would explode
   * the series). */
  middleware() {
    return async (c: Context, next: Next) => {
      const stop = this.latency.startTimer();
      await next();
      const route = c.req.routePath || 'unmatched';
      stop({ method: c.req.method, route });
      this.requests.inc({ method: c.req.method, route, status: String(c.res.status) });
    };
  }

  async text(): Promise<{ body: string; contentType: string }> {
    await this.countRunning();
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
