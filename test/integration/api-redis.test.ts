// The API and the worker as separate processes (`npm run api`, `npm run worker`), the text being written carried by
// a real Redis between them; then the worker is SIGKILLed mid-reply: the browser-side stream is told to discard the
// dead attempt's text, the retry on a new worker streams again, and the reply arrives whole, once.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { openEvents, type SseEvent } from '../../testkit/sse';
import { startTemporal } from '../../testkit/temporal';
import { startWorkerProcess, type WorkerProcess } from '../../testkit/worker-process';
import { startRedis, type RunningRedis } from '../../testkit/redis-server';

const ROOT = path.join(__dirname, '..', '..');
const LONG_REPLY = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ') + '.';

describe('API and worker in separate processes, streaming through Redis', () => {
  let env: TestWorkflowEnvironment;
  let redis: RunningRedis;
  let api: { child: ChildProcess; url: string; output(): string };
  const workers: WorkerProcess[] = [];
  let workerEnv: Record<string, string>;

  beforeAll(async () => {
    [redis, env] = await Promise.all([startRedis(), startTemporal()]);
    const dir = mkdtempSync(path.join(tmpdir(), 'api-redis-'));
    const script = path.join(dir, 'script.json');
    writeFileSync(
      script,
      JSON.stringify({
        rules: [
          { user: '^Greet the user', reply: { text: 'Hello there, ask me anything.' } },
          { user: 'tell me a story', reply: { text: LONG_REPLY } },
        ],
      }),
    );
    const common = {
      TEMPORAL_ADDRESS: env.address,
      TASK_QUEUE: `api-redis-${Date.now()}`,
      REDIS_URL: redis.url,
      AGENT_GOAL: 'goal_general',
    };
    // 150 ms between words: the reply takes ~9 s to write, time enough to kill the worker in the middle of it.
    workerEnv = {
      ...common,
      LLM_MODEL: `scripted:${script}`,
      SCRIPTED_STREAM_DELAY_MS: '150',
      VALIDATE_PROMPTS: 'false',
      DATA_DIR: dir,
      MCP_ENDPOINTS_FILE: '/nonexistent',
    };
    workers.push(await startWorkerProcess(workerEnv));
    api = await startApiProcess({ ...common, API_PORT: '0', DATA_DIR: dir });
  }, 120_000);
  afterAll(async () => {
    api?.child.kill('SIGTERM');
    await Promise.all(workers.map((w) => w.stop()));
    await redis?.stop();
    await env?.teardown();
  });

  const post = async (p: string, body: unknown) => {
    const res = await fetch(`${api.url}${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { conversationId?: string } };
  };

  it('streams through Redis, and a worker killed mid-reply loses nothing: discard, retry, the reply once', async () => {
    const started = await post('/api/conversations', {});
    expect(started.status).toBe(201);
    const id = started.body.conversationId as string;
    const events = await openEvents(`${api.url}/api/conversations/${id}/events`);
    try {
      await events.next((e) => e.event === 'state');
      expect((await post(`/api/conversations/${id}/messages?wait=false`, { text: 'tell me a story' })).status).toBe(
        202,
      );

      // Text written in the worker process reaches the API process through Redis.
      const firstTokens = await events.next(
        (e) => e.event === 'token' && textOf(events.events, (e.data as Token).attempt).split(' ').length >= 5,
        30_000,
      );
      const deadAttempt = (firstTokens.data as Token).attempt;
      await workers[0]!.kill();
      workers.push(await startWorkerProcess(workerEnv));

      const discard = await events.next((e) => e.event === 'discard', 60_000);
      expect(discard.data).toEqual({ attempt: deadAttempt });
      const reply = await events.next(
        (e) =>
          e.event === 'message' &&
          (e.data as { message: { kind: string } }).message.kind === 'agent' &&
          (e.data as { seq: number }).seq > 1,
        60_000,
      );
      expect((reply.data as { message: { text: string } }).message.text).toBe(LONG_REPLY);

      // The retry streamed the whole reply again under its own attempt, after the discard.
      const retried = events.events.filter((e) => e.event === 'token' && (e.data as Token).attempt !== deadAttempt);
      expect(retried.length).toBeGreaterThan(1);
      expect(retried[0]!.at).toBeGreaterThanOrEqual(discard.at);
      expect(textOf(events.events, (retried[0]!.data as Token).attempt)).toBe(LONG_REPLY);

      // Once: one agent message with the story, in the stream and in the conversation.
      await new Promise((r) => setTimeout(r, 1_000));
      const stories = events.events.filter(
        (e) => e.event === 'message' && (e.data as { message: { text?: string } }).message.text === LONG_REPLY,
      );
      expect(stories).toHaveLength(1);
      const convo = (await (await fetch(`${api.url}/api/conversations/${id}`)).json()) as {
        messages: { message: { kind: string; text?: string } }[];
      };
      expect(convo.messages.filter((m) => m.message.text === LONG_REPLY)).toHaveLength(1);
    } finally {
      events.close();
    }
  }, 120_000);
});

interface Token {
  attempt: string;
  offset: number;
  text: string;
}

/** The text an attempt's token events add up to, as a client assembles it. */
function textOf(events: SseEvent[], attempt: string): string {
  let text = '';
  for (const e of events) {
    if (e.event !== 'token' || (e.data as Token).attempt !== attempt) continue;
    const t = e.data as Token;
    text = text.slice(0, t.offset) + t.text;
  }
  return text;
}

async function startApiProcess(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; output(): string }> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', 'api/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const url = /API (http:\/\/[\d.:]+)\/api/.exec(output)?.[1];
    if (url) return { child, url, output: () => output };
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`npm run api did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
