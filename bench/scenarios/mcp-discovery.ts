// Discovery (McpDiscovery.catalog()) over registries of N fx stdio endpoints. Each cold run gets a fresh pool:
//   cold        spawns N servers, handshakes, lists their tools;
//   warm hit    catalog() again, nothing changed: one stat of the registry file and the cached catalog;
//   warm re-list catalog() after invalidate(): re-lists every endpoint over the pooled, live sessions;
// then the pool is closed (its processes ended) before the next run.
import { performance } from 'node:perf_hooks';
import { McpDiscovery, type McpCatalog } from '../../endpoints/catalog';
import { McpPool } from '../../endpoints/mcp/pool';
import { RegistryFile } from '../../endpoints/endpoint-registry';
import { PROJECT_ROOT } from '../../worker/worker-settings';
import { fxRegistry } from '../fx';
import type { Interrupts } from '../interrupts';
import type { McpOptions } from '../options';
import { roundRobin, type Sampler } from '../round-robin';

/** Samples are the cold discoveries; the other figures of each timed run go alongside. */
export interface DiscoverySampler extends Sampler {
  endpoints: number;
  tools: number;
  warmHit: number[];
  warmRelist: number[];
  poolClose: number[];
}

type Figures = Pick<DiscoverySampler, 'warmHit' | 'warmRelist' | 'poolClose'>;
const fx = { toolsPerServer: 3 };

/** Cold runs for each endpoint count, interleaved; returns the samplers (in opts.endpointCounts order) and the ms taken. */
export async function benchDiscovery(
  opts: McpOptions,
  dir: string,
  interrupts: Interrupts,
): Promise<{ results: DiscoverySampler[]; ms: number }> {
  const counts = opts.endpointCounts;
  const results = counts.map((n) => discoveryOver(fxRegistry(dir, n), n, opts, interrupts));
  process.stderr.write(`bench (MCP): discovery over ${counts.join(', ')} endpoints, ${opts.coldRuns} cold runs each\n`);
  const t = performance.now();
  // One untimed run first, so the first timed one does not pay for cold file caches.
  await results[0]!.sample(false);
  const progress = { unit: 'cold runs per endpoint count', every: 1 };
  await roundRobin(results, { warmup: 0, iterations: opts.coldRuns, interrupts, progress });
  return { results, ms: performance.now() - t };
}

function discoveryOver(registryFile: string, n: number, opts: McpOptions, interrupts: Interrupts): DiscoverySampler {
  const sampler: DiscoverySampler = {
    endpoints: n,
    tools: fx.toolsPerServer * n,
    samples: [],
    warmHit: [],
    warmRelist: [],
    poolClose: [],
    // Warm-up runs go to scratch arrays: only the timed runs' figures are reported.
    sample: (timed) =>
      discoveryRun(registryFile, n, opts, interrupts, timed ? sampler : { warmHit: [], warmRelist: [], poolClose: [] }),
  };
  return sampler;
}

/** One fresh pool: returns the cold discovery's ms and adds the warm figures to `into`. */
async function discoveryRun(
  file: string,
  n: number,
  opts: McpOptions,
  interrupts: Interrupts,
  into: Figures,
): Promise<number> {
  const pool = new McpPool({ baseDir: PROJECT_ROOT });
  // Generous timeouts: 20 servers starting at once on a small machine must not be reported as unavailable.
  const discovery = new McpDiscovery({
    registry: new RegistryFile(file),
    pool,
    discoveryTimeoutMs: 60_000,
    ttlMs: 3_600_000,
  });
  let closed = false;
  try {
    const t = performance.now();
    const version = checkCatalog(await discovery.catalog(), n, 'cold');
    const cold = performance.now() - t;
    await warmHits(discovery, n, version, opts.warmHitsPerPool, into.warmHit);
    await warmRelists(discovery, n, version, opts.warmRelistsPerPool, into.warmRelist, interrupts);
    const c = performance.now();
    await pool.closeAll();
    into.poolClose.push(performance.now() - c);
    closed = true;
    return cold;
  } finally {
    if (!closed) await pool.closeAll();
  }
}

async function warmHits(
  discovery: McpDiscovery,
  n: number,
  version: string,
  count: number,
  into: number[],
): Promise<void> {
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    const catalog = await discovery.catalog();
    into.push(performance.now() - t);
    if (catalog.version !== version) throw new Error(`discovery (warm hit, ${n} endpoints): the catalog changed`);
  }
}

async function warmRelists(
  discovery: McpDiscovery,
  n: number,
  version: string,
  count: number,
  into: number[],
  interrupts: Interrupts,
): Promise<void> {
  for (let i = 0; i < count; i++) {
    interrupts.check();
    discovery.invalidate();
    const t = performance.now();
    const catalog = await discovery.catalog();
    into.push(performance.now() - t);
    if (checkCatalog(catalog, n, 'warm re-list') !== version)
      throw new Error(`discovery (warm re-list, ${n} endpoints): the catalog changed`);
  }
}

/** Throws unless every endpoint answered with all its tools (a slow one marked unavailable would flatter cold); returns the version. */
function checkCatalog(catalog: McpCatalog, n: number, what: string): string {
  const bad = catalog.endpoints.filter((e) => e.status !== 'ok');
  if (catalog.endpoints.length !== n || bad.length > 0 || catalog.tools.length !== fx.toolsPerServer * n) {
    throw new Error(
      `discovery (${what}, ${n} endpoints): ${catalog.endpoints.length} endpoints, ${catalog.tools.length} tools` +
        (bad.length ? `; ${bad.map((e) => `${e.name} ${e.status}${e.error ? `: ${e.error}` : ''}`).join('; ')}` : ''),
    );
  }
  return catalog.version;
}
