// The goal and tools of a model call by number (PlanContextRef): the workflow numbers each distinct pair it sends and
// sends it whole once; the worker keeps what it was sent (one copy per content, across runs) and asks the run for a
// number it never saw.
import { MockActivityEnvironment } from '@temporalio/testing';
import type { Client } from '@temporalio/client';
import { fingerprint, PlanContexts } from '../../workflows/decider/plan-contexts';
import { PlanContextCache } from '../../activities/llm/plan-contexts';
import type { PlanContextInput } from '../../core/activity-types';
import { book, goal } from '../helpers/conversation-unit';

describe('plan contexts: the workflow side', () => {
  it('sends a pair whole once, then by number; a change (equal content is no change) is sent whole with the next', () => {
    const sent = new PlanContexts();
    const first = { version: 1, fingerprint: fingerprint(JSON.stringify([goal, [book]])) };
    expect(sent.input(goal, [book])).toEqual({ goal, tools: [book], context: first });
    expect(sent.input(goal, [book])).toEqual({ context: first });
    expect(sent.input({ ...goal }, [{ ...book }])).toEqual({ context: first });
    const second = sent.input(goal, []);
    expect(second).toMatchObject({ goal, tools: [], context: { version: 2 } });
    expect(second.context!.fingerprint).not.toBe(first.fingerprint);
    expect(sent.get(1)).toEqual({ goal, tools: [book] });
    expect(sent.get(3)).toBeNull();
  });

  it('keeps the last eight versions for workers that ask', () => {
    const sent = new PlanContexts();
    for (let i = 0; i < 10; i++) sent.input({ ...goal, description: `v${i}` }, [book]);
    expect(sent.get(2)).toBeNull();
    expect(sent.get(3)?.goal.description).toBe('v2');
    expect(sent.get(10)?.goal.description).toBe('v9');
  });
});

describe('plan contexts: the worker side', () => {
  /** A client whose planContext query answers from `runs` (by run id), counting the queries. */
  function clientOf(runs: Record<string, PlanContexts>) {
    const asked: number[] = [];
    const client = {
      withAbortSignal: <R>(_signal: AbortSignal, fn: () => R) => fn(),
      workflow: {
        getHandle: (_id: string, runId: string) => ({
          query: async (_q: unknown, version: number) => {
            asked.push(version);
            return runs[runId]!.get(version);
          },
        }),
      },
    } as unknown as Client;
    return { client, asked };
  }
  const on = (client: Client, runId: string) =>
    new MockActivityEnvironment({ workflowExecution: { workflowId: 'w', runId } }, { client });

  it('keeps what a request carried and gives it to later requests by number, asking the run for one it never saw', async () => {
    const a = new PlanContexts();
    const b = new PlanContexts();
    const { client, asked } = clientOf({ a, b });
    const cache = new PlanContextCache();
    const resolve = (runId: string, input: PlanContextInput) => on(client, runId).run(() => cache.resolve(input));

    await resolve('a', a.input(goal, [book]));
    expect(await resolve('a', a.input(goal, [book]))).toMatchObject({ goal, tools: [book] });
    expect(asked).toEqual([]);
    // Run b's first request went to another worker: this one asks, once.
    b.input(goal, [book]);
    const byNumber = b.input(goal, [book]);
    expect(await resolve('b', byNumber)).toMatchObject({ goal, tools: [book] });
    expect(await resolve('b', byNumber)).toMatchObject({ goal, tools: [book] });
    expect(asked).toEqual([1]);
    // Two runs with the same goal and tools: one copy.
    expect(cache.size).toEqual({ contents: 1, bytes: JSON.stringify({ goal, tools: [book] }).length });
  });

  it('content kept under a number with another fingerprint (sent by a build that numbered differently) is asked again', async () => {
    const run = new PlanContexts();
    const { client, asked } = clientOf({ a: run });
    const cache = new PlanContextCache();
    const resolve = (input: PlanContextInput) => on(client, 'a').run(() => cache.resolve(input));
    // Another build sent its own first pair as version 1.
    await resolve(new PlanContexts().input(goal, []));
    run.input(goal, [book]);
    expect(await resolve(run.input(goal, [book]))).toMatchObject({ goal, tools: [book] });
    expect(asked).toEqual([1]);
    expect(cache.size.contents).toBe(1);
  });

  it('keeps no more than its limits: the least recently used versions go first, their content with the last of them', async () => {
    const run = new PlanContexts();
    const { client, asked } = clientOf({ a: run });
    const cache = new PlanContextCache({ versions: 3, bytes: 2_500 });
    const resolve = (input: PlanContextInput) => on(client, 'a').run(() => cache.resolve(input));
    const big = (n: number) => ({ ...goal, description: `${n}`.repeat(1_000) });
    for (let n = 1; n <= 4; n++) await resolve(run.input(big(n), [book]));
    // Each is ~1.3 KB: the last one or two fit.
    expect(cache.size.bytes).toBeLessThanOrEqual(2_500);
    expect(cache.size.contents).toBeGreaterThanOrEqual(1);
    // Version 4 is held; version 1 went, and is asked for again.
    await resolve(run.input(big(4), [book]));
    expect(asked).toEqual([]);
    await resolve({ context: { version: 1, fingerprint: fingerprint(JSON.stringify([big(1), [book]])) } });
    expect(asked).toEqual([1]);
  });

  it('a request with its goal and tools and no number (runs recorded before) is used as it is', async () => {
    const { client } = clientOf({});
    const input = { goal, tools: [book] };
    expect(await on(client, 'x').run(() => new PlanContextCache().resolve(input))).toBe(input);
  });

  it('a number the run no longer keeps fails the call, saying so, without retrying', async () => {
    const { client } = clientOf({ a: new PlanContexts() });
    await expect(
      on(client, 'a').run(() => new PlanContextCache().resolve({ context: { version: 4, fingerprint: 'x' } })),
    ).rejects.toMatchObject({
      nonRetryable: true,
      message: expect.stringContaining('no longer keeps the goal and tools its model call was sent as version 4'),
    });
  });
});
