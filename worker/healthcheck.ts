// The container image's HEALTHCHECK (`node dist/worker/healthcheck.js`): healthy when the process answers on
// HEALTHCHECK_URL, by default the worker's metrics endpoint (METRICS_PORT), which Temporal's runtime serves for as
// long as the worker runs (a worker that stops ends its process). The API's container points it at /api/health,
// which also says whether Temporal is reachable.
const url = process.env.HEALTHCHECK_URL || `http://127.0.0.1:${process.env.METRICS_PORT || 9464}/metrics`;

fetch(url, { signal: AbortSignal.timeout(4_000) }).then(
  (res) => process.exit(res.ok ? 0 : 1),
  (err: unknown) => {
    console.error(`unhealthy: ${url}: ${(err as Error).message}`);
    process.exit(1);
  },
);
