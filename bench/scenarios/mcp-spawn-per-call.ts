// c: spawning the server for every call, as a client without a session pool would: process start-up and the
// handshake dominate. Split into its parts so the report can say which.
import { performance } from 'node:perf_hooks';
import { sdkConvert, spawnFx } from '../fx';
import type { Sampler } from '../round-robin';
import type { CallScenario } from '../scenario';

export interface SpawnSampler extends Sampler {
  /** Timed calls only, in ms: spawn + connect, callTool, close (waits for the process to exit). */
  parts: { connect: number[]; call: number[]; close: number[] };
}

export function spawnPerCall(): CallScenario<SpawnSampler> {
  const parts = { connect: [] as number[], call: [] as number[], close: [] as number[] };
  return {
    key: 'c',
    name: 'c  spawn per call',
    description:
      'new StdioClientTransport + Client.connect (spawns fx, handshake) + callTool + close (waits for the process to exit), every call.',
    sampler: { samples: [], parts, sample: (timed) => spawnAndCall(timed ? parts : undefined) },
  };
}

async function spawnAndCall(parts: SpawnSampler['parts'] | undefined): Promise<number> {
  const t0 = performance.now();
  const { client, transport } = spawnFx();
  try {
    await client.connect(transport);
    const t1 = performance.now();
    await sdkConvert(client);
    const t2 = performance.now();
    await client.close();
    const t3 = performance.now();
    parts?.connect.push(t1 - t0);
    parts?.call.push(t2 - t1);
    parts?.close.push(t3 - t2);
    return t3 - t0;
  } finally {
    await client.close().catch(() => undefined);
  }
}
