// A real S3-compatible server for the S3 blob store's tests: moto's (`moto_server`, from PyPI as `npm install` brings
// it: testkit/test-binaries.ts), on a free port, in memory, stopped by its pid, with the buckets asked for. Requests
// are signed (SigV4) as with any S3 service; moto takes any key.
//
// Not s3rver (npm): it writes an object in place, so a GET during another PUT of the same key reads a part of it —
// S3 never does, and the store's protocol relies on whole PUTs (two processes putting the same content at once).
import { spawn } from 'node:child_process';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { findMotoServer, MISSING_MOTO_SERVER } from './test-binaries';
import { freePort } from './redis-server';

export interface RunningS3 {
  endpoint: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** The settings a process reads to use this server (BLOB_STORE=s3, …, the AWS SDK's credentials). */
  env(bucket: string): Record<string, string>;
  stop(): Promise<void>;
}

export const S3_CREDENTIALS = { accessKeyId: 'test-key', secretAccessKey: 'test-secret' };

export async function startS3(buckets: string[]): Promise<RunningS3> {
  const moto = findMotoServer();
  if (!moto) throw new Error(MISSING_MOTO_SERVER);
  const port = await freePort();
  const child = spawn(moto.bin, ['-H', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...(moto.pythonPath ? { PYTHONPATH: moto.pythonPath } : {}) },
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4_000)));
  child.stderr.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const endpoint = `http://127.0.0.1:${port}`;
  const s3 = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3_CREDENTIALS });
  try {
    for (const deadline = Date.now() + 30_000; ;) {
      if (child.exitCode !== null) throw new Error(`${moto.bin} exited (${child.exitCode}): ${output}`);
      const up = await fetch(`${endpoint}/moto-api/`).then(
        () => true,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline) throw new Error(`${moto.bin} did not answer on port ${port} in 30 s: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const Bucket of buckets) await s3.send(new CreateBucketCommand({ Bucket }));
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  } finally {
    s3.destroy();
  }
  return {
    endpoint,
    credentials: S3_CREDENTIALS,
    env: (bucket) => ({
      BLOB_STORE: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: S3_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3_CREDENTIALS.secretAccessKey,
    }),
    stop: async () => {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
