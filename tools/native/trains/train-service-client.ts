// How the train tools reach the train service (demo/train-service.ts), at the URL the worker's settings
// put on the tool context (ctx.services.trainServiceUrl). Not a tool (no default export). 4xx answers are domain
// answers for the LLM (ToolError); an unreachable service or a 5xx is thrown as a plain error, so Temporal retries
// the activity before reporting it.
import { ToolError } from '../../define-tool';

export async function trainService<T>(
  serviceUrl: string,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<T> {
  const base = serviceUrl.replace(/\/+$/, '');
  let res: Response;
  try {
    res = await fetch(`${base}${path}`, {
      method: init.method ?? 'GET',
      headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
      signal: AbortSignal.timeout(10_000),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
    throw new Error(
      `The train service at ${base} is not reachable (${cause}). Start it with: npx tsx demo/train-service.ts`,
    );
  }
  const body = (await res.json().catch(() => ({}))) as { error?: string };
  if (res.status >= 400 && res.status < 500)
    throw new ToolError(body.error ?? `The train service refused the request (${res.status}).`);
  if (!res.ok) throw new Error(`The train service answered ${res.status}: ${body.error ?? res.statusText}`);
  return body as T;
}
