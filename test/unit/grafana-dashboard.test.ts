// The shipped Grafana dashboard (config/grafana/dashboards/agent-orchestrator.json): typed as Grafana's own dashboard
// schema (@grafana/schema, checked by the type-check), panels that do not overlap, and every query parsed by
// Prometheus's own PromQL parser. That the queries name only metrics and labels our processes export is checked
// against real scrapes in test/integration/observability.test.ts.
import type { Dashboard, VariableType } from '@grafana/schema';
import shipped from '../../config/grafana/dashboards/agent-orchestrator.json';
import { namesIn } from '../../testkit/promql';

const VARIABLE_TYPES: VariableType[] = ['query', 'adhoc', 'groupby', 'constant', 'datasource', 'interval', 'textbox'];
/** JSON types a variable's `type` as any string: checked here against Grafana's values, the rest by the type-check. */
function variableType(type: string): VariableType {
  if (!VARIABLE_TYPES.includes(type as VariableType)) throw new Error(`not a Grafana variable type: ${type}`);
  return type as VariableType;
}

/** The type-check (npm run typecheck) refuses a dashboard that does not fit Grafana's schema. */
const dashboard: Dashboard = {
  ...shipped,
  templating: { list: shipped.templating.list.map((v) => ({ ...v, type: variableType(v.type) })) },
};

describe('the Grafana dashboard', () => {
  const panels = shipped.panels;
  const queries = panels.flatMap((p) => p.targets.map((t) => ({ panel: p.title, expr: t.expr })));

  it("has Grafana's dashboard shape: a uid, the Prometheus data source as a variable, unique panel ids, a tidy grid", () => {
    expect(dashboard.uid).toBe('agent-orchestrator');
    expect(dashboard.templating?.list?.[0]).toMatchObject({
      name: 'datasource',
      type: 'datasource',
      query: 'prometheus',
    });
    expect(new Set(panels.map((p) => p.id)).size).toBe(panels.length);
    const cells = new Set<string>();
    for (const { gridPos } of panels)
      for (let x = gridPos.x; x < gridPos.x + gridPos.w; x++)
        for (let y = gridPos.y; y < gridPos.y + gridPos.h; y++) {
          expect(cells.has(`${x},${y}`)).toBe(false);
          cells.add(`${x},${y}`);
        }
    for (const p of panels) expect(p.targets.every((t) => t.datasource.uid === '${datasource}')).toBe(true);
  });

  it("covers what operators asked for, each query parsed by Prometheus's parser", () => {
    expect(queries.length).toBeGreaterThanOrEqual(13);
    for (const q of queries)
      expect({ panel: q.panel, errors: namesIn(q.expr).errors }).toEqual({ panel: q.panel, errors: [] });
    const metrics = new Set(queries.flatMap((q) => namesIn(q.expr).metrics));
    expect([...metrics].sort()).toEqual([
      'agent_api_request_duration_seconds_bucket',
      'agent_api_requests_total',
      'agent_conversations_running',
      'agent_llm_calls_total',
      'agent_llm_cost_usd_sum',
      'agent_llm_tokens_total',
      'agent_mcp_endpoint_up',
      'agent_tool_calls_total',
      'agent_turn_latency_bucket',
      'agent_turns_total',
      'agent_unattended_runs_total',
      'temporal_worker_task_slots_used',
    ]);
    // A broken query is caught: the check can fail.
    expect(namesIn('sum(rate(agent_turns_total[5m])').errors).not.toEqual([]);
  });
});
