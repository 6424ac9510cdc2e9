// The dev server's own count of the requests it served (its Prometheus endpoint, `service_requests` of the frontend by
// operation): the run-view benchmark's cross-check of what the API says it asked. The CLI puts the endpoint on a random
// free port and says which only on its stdout, so it is found among the ports the server's process listens on (Linux
// /proc). None (an external server, or not Linux): the cross-check is left out.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface ServerRequests {
  url: string;
  /** Requests the frontend has served so far, by operation (GetWorkflowExecutionHistory, QueryWorkflow, …). */
  read(): Promise<Record<string, number>>;
}

export async function findServerRequests(pid: number | undefined, grpcPort: number): Promise<ServerRequests | null> {
  if (!pid) return null;
  for (const port of listeningPorts(pid).filter((p) => p !== grpcPort)) {
    const url = `http://127.0.0.1:${port}/metrics`;
    const text = await scrape(url).catch(() => '');
    if (text.includes('service_requests')) return { url, read: async () => frontendRequests(await scrape(url)) };
  }
  return null;
}

async function scrape(url: string): Promise<string> {
  const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.text();
}

/** `service_requests{…operation="X",service_name="frontend"} N`, summed over namespaces, by operation. */
export function frontendRequests(exposition: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of exposition.split('\n')) {
    if (!line.startsWith('service_requests{') || !line.includes('service_name="frontend"')) continue;
    const op = /operation="([^"]+)"/.exec(line)?.[1];
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (op && Number.isFinite(value)) counts[op] = (counts[op] ?? 0) + value;
  }
  return counts;
}

/** The TCP ports process `pid` listens on: its sockets' inodes matched in /proc/net/tcp{,6} (state 0A, LISTEN). */
function listeningPorts(pid: number): number[] {
  let inodes: Set<string>;
  try {
    inodes = new Set(
      readdirSync(`/proc/${pid}/fd`)
        .map((fd) => {
          try {
            return /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
          } catch {
            return undefined;
          }
        })
        .filter((x): x is string => !!x),
    );
  } catch {
    return [];
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f[3] === '0A' && inodes.has(f[9]!)) ports.add(parseInt(f[1]!.split(':')[1]!, 16));
    }
  }
  return [...ports];
}
