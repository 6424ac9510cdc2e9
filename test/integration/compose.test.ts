// The compose files, checked as Docker Compose reads them (testkit/compose.ts: merge keys, variables, the Compose
// Specification's schema; no Docker is needed, and no engine runs here, so the images are not built or started): both
// validate, every setting the worker, the API and the Temporal connection read reaches our containers, values come
// from the environment / .env, and the worker can be scaled. The Dockerfile and .dockerignore are checked as written.
import { existsSync } from 'node:fs';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { composeConfig, composeProblems, type ComposeFile } from '../../testkit/compose';
import { API_SETTING_NAMES } from '../../api/api-settings';
import { TRACING_SETTING_NAMES } from '../../runtime/tracing';
import { CONNECTION_SETTING_NAMES } from '../../runtime/connection';
import { WORKER_SETTING_NAMES } from '../../worker/worker-settings';

const ROOT = path.join(__dirname, '..', '..');
/** The file as Compose resolves it (anchors merged, ${VAR:-default} substituted from `env`). */
function resolved(file: string, env: Record<string, string> = {}): ComposeFile {
  return composeConfig(path.join(ROOT, file), env);
}

/** Variables an MCP endpoint of the shipped registry reads (`${env:NAME}`): the worker must be given them too. */
/** The secrets the shipped registries name (endpoints, webhook triggers). */
function registryVariables(): string[] {
  const registries = ['mcp_endpoints.json', 'triggers.json'].map((f) =>
    readFileSync(path.join(ROOT, 'config', f), 'utf8'),
  );
  return [...new Set(registries.flatMap((text) => [...text.matchAll(/\$\{env:([A-Z0-9_]+)\}/g)].map((m) => m[1]!)))];
}

describe('compose files (as Compose resolves them)', () => {
  it('both validate against the Compose Specification', () => {
    for (const file of ['docker-compose.yml', 'docker-compose.dev.yml']) {
      expect(composeProblems(path.join(ROOT, file))).toEqual([]);
    }
  });

  it('would see a broken file: an unknown key, a wrong type, a required variable unset', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'compose-'));
    const broken = path.join(dir, 'compose.yml');
    writeFileSync(broken, 'services:\n  x:\n    image: 1\n    imagee: node\n');
    expect(composeProblems(broken)).toEqual([
      'compose.yml/services/x: must NOT have additional properties',
      'compose.yml/services/x/image: must be string',
    ]);
    writeFileSync(broken, 'services:\n  x:\n    image: ${IMAGE:?set IMAGE}\n');
    expect(() => composeProblems(broken)).toThrow('IMAGE is required: set IMAGE');
    expect(composeProblems(broken, { IMAGE: 'node:20' })).toEqual([]);
  });

  it('passes every setting the code reads to each of our containers', () => {
    const { services } = resolved('docker-compose.yml');
    const wanted = [
      ...new Set([
        ...WORKER_SETTING_NAMES,
        ...API_SETTING_NAMES,
        ...CONNECTION_SETTING_NAMES,
        ...TRACING_SETTING_NAMES,
        ...registryVariables(),
      ]),
    ];
    for (const name of ['worker', 'train-tools', 'train-service', 'api']) {
      const missing = wanted.filter((v) => !(v in (services[name]?.environment ?? {})));
      expect({ service: name, missing }).toEqual({ service: name, missing: [] });
    }
    const dev = resolved('docker-compose.dev.yml').services.worker!;
    expect(
      [...WORKER_SETTING_NAMES, ...CONNECTION_SETTING_NAMES, ...TRACING_SETTING_NAMES].filter(
        (v) => !(v in (dev.environment ?? {})),
      ),
    ).toEqual([]);
  });

  it('takes values from the environment (and so from .env), with defaults that fit the deployment', () => {
    const plain = resolved('docker-compose.yml').services;
    expect(plain.worker!.environment).toMatchObject({
      TEMPORAL_ADDRESS: 'temporal:7233',
      REDIS_URL: 'redis://redis:6379',
      TASK_QUEUE: 'agent-task-queue',
      LLM_MODEL: '',
    });
    const set = resolved('docker-compose.yml', {
      LLM_MODEL: 'openai:gpt-4o-mini',
      DELEGATE_TIMEOUT: '15m',
      API_PORT: '9090',
      TEMPORAL_PORT: '17233',
    }).services;
    expect(set.worker!.environment).toMatchObject({ LLM_MODEL: 'openai:gpt-4o-mini', DELEGATE_TIMEOUT: '15m' });
    expect(JSON.stringify(set.api!.ports)).toContain('9090');
    expect(JSON.stringify(set.temporal!.ports)).toContain('17233');
  });

  it('has the deployment shape: PostgreSQL-backed Temporal, UI, Redis, scalable workers, health-gated start', () => {
    const { services } = resolved('docker-compose.yml');
    expect(Object.keys(services).sort()).toEqual([
      'api',
      'grafana',
      'jaeger',
      'postgres',
      'prometheus',
      'redis',
      'temporal',
      'temporal-ui',
      'train-service',
      'train-tools',
      'worker',
      'worker-next',
    ]);
    // A new build beside the workers only with `--profile rollout`: the same worker, another image, never promoting
    // itself (docs/deploying.md, "Roll out a new version").
    expect(services['worker-next']).toMatchObject({ profiles: ['rollout'], command: services.worker!.command });
    expect(services['worker-next']!.image).not.toBe(services.worker!.image);
    expect(services['worker-next']!.environment).toEqual({
      ...services.worker!.environment,
      WORKER_PROMOTE: 'never',
      WORKER_BUILD_ID: '',
    });
    // Prometheus, Grafana and Jaeger only with `--profile observability`; Prometheus scrapes the port the workers
    // serve on; Grafana is provisioned with Prometheus and the shipped dashboard, which exist where it mounts them.
    for (const name of ['prometheus', 'grafana', 'jaeger']) expect(services[name]!.profiles).toEqual(['observability']);
    const mounts = (services.grafana!.volumes ?? []).map((v) => v.split(':'));
    expect(mounts.map(([, target]) => target)).toEqual(['/etc/grafana/provisioning', '/var/lib/grafana/dashboards']);
    for (const [source] of mounts) expect(existsSync(path.join(ROOT, source!))).toBe(true);
    const scrape = parse(readFileSync(path.join(ROOT, 'config', 'prometheus.yml'), 'utf8')) as {
      scrape_configs: { job_name: string; dns_sd_configs?: { names: string[]; port: number }[] }[];
    };
    const workers = scrape.scrape_configs.find((j) => j.job_name === 'agent-workers')!.dns_sd_configs![0]!;
    expect(workers).toMatchObject({
      names: ['worker', 'train-tools'],
      port: Number(services.worker!.environment!.METRICS_PORT),
    });
    // `--scale worker=3` needs no fixed container name and no host port.
    expect(services.worker!.container_name).toBeUndefined();
    expect(services.worker!.ports).toBeUndefined();
    expect(services.worker!.depends_on).toEqual({
      temporal: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
      postgres: { condition: 'service_healthy' },
    });
    expect(services.temporal!.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    // Every worker keeps memories in one database of the postgres service (PGlite is one process's), with the
    // password .env gives the server.
    expect(services.worker!.environment!.DATABASE_URL).toBe('postgres://temporal:temporal@postgres:5432/agent_memory');
    expect(resolved('docker-compose.yml', { POSTGRES_PASSWORD: 's3cret' }).services.worker!.environment).toMatchObject({
      DATABASE_URL: 'postgres://temporal:s3cret@postgres:5432/agent_memory',
    });
    expect(services.postgres!.image).toMatch(/^pgvector\/pgvector:/);
    for (const name of ['postgres', 'temporal', 'redis', 'api', 'train-service'])
      expect(services[name]!.healthcheck).toBeDefined();
    expect(services.api!.command).toEqual(['node', 'dist/api/main.js']);
  });
});

// No engine here to build the image: its shape is checked as written.
describe('the Dockerfile and .dockerignore', () => {
  const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  const instructions = dockerfile.split('\n').filter((line) => /^[A-Z]+ /.test(line));
  const stages = instructions.map((line, i) => (line.startsWith('FROM ') ? i : -1)).filter((i) => i >= 0);
  const runStage = instructions.slice(stages.at(-1));

  it('builds in one stage and runs compiled code on production dependencies in another, as a non-root user', () => {
    expect(stages).toHaveLength(2);
    expect(instructions).toContain('RUN npm run build');
    expect(runStage).toContain('COPY --from=build /app/dist ./dist');
    expect(runStage.find((line) => line.startsWith('RUN npm install'))).toMatch(/--omit=dev/);
    expect(runStage).toContain('USER node');
    expect(
      runStage.some((line) => line.startsWith('HEALTHCHECK ') && line.includes('dist/worker/healthcheck.js')),
    ).toBe(true);
    expect(runStage.at(-1)).toBe('CMD ["node", "dist/worker/main.js"]');
  });

  it('keeps secrets, state and the host build out of the context', () => {
    const ignored = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const entry of ['.env', 'node_modules', 'dist', 'data', 'config/prometheus-api-key', '.git'])
      expect(ignored).toContain(entry);
  });
});
