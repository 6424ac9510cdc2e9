/* global require, process */
// Loaded into the compiled worker by the bench's memory part and bench/heap-snapshots.ts
// (NODE_OPTIONS=--require=…/heap-hook.cjs), never by the product. Through the inspector (the workflow thread, where
// Temporal runs every cached conversation in one V8 context, through its NodeWorker domain):
// - SIGURG: both threads' garbage collected as V8 collects it when memory is low — what it does by itself once the
//   worker has been idle 35–60 s — then $HEAP_HOOK_PREFIX-gc-<n>.json written with the memory figures;
// - SIGWINCH: a heap snapshot of the workflow thread, then of the main thread (activities, the SDK's worker), written
//   to $HEAP_HOOK_PREFIX-<n>.heapsnapshot and -<n>-main.heapsnapshot, with the memory figures before and after in
//   -<n>.json; the workflow snapshot is written under a .part name and renamed last, so its name appearing says all
//   three are there. A snapshot collects garbage first, so what it holds is live.
// Both signals are ignored by default (Temporal's runtime shuts the worker down on SIGUSR2).
/* eslint-disable @typescript-eslint/no-require-imports */
const { isMainThread } = require('node:worker_threads');
const { Session } = require('node:inspector');
const { appendFileSync, renameSync, writeFileSync } = require('node:fs');

if (isMainThread && process.env.HEAP_HOOK_PREFIX) {
  const prefix = process.env.HEAP_HOOK_PREFIX;
  let taken = 0;
  let collected = 0;
  const session = new Session();
  session.connect();
  /** The worker threads the inspector attached to, by session id (the worker starts one: the workflow thread). */
  const workers = new Map();
  session.on('NodeWorker.attachedToWorker', ({ params }) => workers.set(params.sessionId, params.workerInfo));
  session.post('NodeWorker.enable', { waitForDebuggerOnStart: false });

  let taking = false;
  const once = (what, work) => () => {
    if (taking) return;
    taking = true;
    work()
      .catch((err) => process.stderr.write(`${what} failed: ${err.stack ?? err}\n`))
      .finally(() => (taking = false));
  };
  process.on('SIGWINCH', once('heap snapshot', snapshots));
  process.on('SIGURG', once('garbage collection', collect));

  /** SIGURG: both threads' garbage collected, then -gc-<n>.json written. */
  async function collect() {
    const [sessionId] = workers.keys();
    if (!sessionId) throw new Error('no worker thread attached');
    const file = `${prefix}-gc-${++collected}.json`;
    const workflowThread = inWorker(sessionId);
    try {
      await workflowThread.send('HeapProfiler.collectGarbage');
    } finally {
      workflowThread.close();
    }
    await mainThread.send('HeapProfiler.collectGarbage');
    writeFileSync(`${file}.part`, JSON.stringify(memory()));
    renameSync(`${file}.part`, file);
  }

  async function snapshots() {
    const [sessionId] = workers.keys();
    if (!sessionId) throw new Error('no worker thread attached');
    const file = `${prefix}-${++taken}`;
    const workflowThread = inWorker(sessionId);
    const figures = { before: { ...memory(), workflowThread: await workflowThread.send('Runtime.getHeapUsage') } };
    await snapshot(`${file}.heapsnapshot.part`, workflowThread);
    figures.after = { ...memory(), workflowThread: await workflowThread.send('Runtime.getHeapUsage') };
    workflowThread.close();
    await snapshot(`${file}-main.heapsnapshot`, mainThread);
    writeFileSync(`${file}.json`, JSON.stringify(figures));
    renameSync(`${file}.heapsnapshot.part`, `${file}.heapsnapshot`);
  }

  function memory() {
    const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
    return { rss, mainThread: { heapUsed, heapTotal, external, arrayBuffers } };
  }

  /** Chunks arrive on the inspector's callbacks: kept, and written synchronously (a write stream there re-enters). */
  async function snapshot(path, thread) {
    writeFileSync(path, '');
    let chunks = [];
    let held = 0;
    const flush = () => {
      appendFileSync(path, chunks.join(''));
      chunks = [];
      held = 0;
    };
    thread.onChunk = (chunk) => {
      chunks.push(chunk);
      if ((held += chunk.length) > 2 ** 24) flush();
    };
    await thread.send('HeapProfiler.enable');
    await thread.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    await thread.send('HeapProfiler.disable');
    flush();
  }

  /** The inspector protocol in the worker thread `sessionId`, through the main thread's session. */
  function inWorker(sessionId) {
    let nextId = 1;
    const replies = new Map();
    const thread = { onChunk: () => {} };
    const onMessage = ({ params }) => {
      if (params.sessionId !== sessionId) return;
      const msg = JSON.parse(params.message);
      if (msg.method === 'HeapProfiler.addHeapSnapshotChunk') thread.onChunk(msg.params.chunk);
      else if (msg.id !== undefined) replies.get(msg.id)?.(msg);
    };
    session.on('NodeWorker.receivedMessageFromWorker', onMessage);
    thread.send = (method, params = {}) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        replies.set(id, (msg) => (msg.error ? reject(new Error(msg.error.message)) : resolve(msg.result)));
        session.post('NodeWorker.sendMessageToWorker', { sessionId, message: JSON.stringify({ id, method, params }) });
      });
    thread.close = () => session.off('NodeWorker.receivedMessageFromWorker', onMessage);
    return thread;
  }

  /** The same for this (the main) thread. */
  const mainThread = {
    onChunk: () => {},
    send: (method, params = {}) =>
      new Promise((resolve, reject) =>
        session.post(method, params, (err, result) => (err ? reject(err) : resolve(result))),
      ),
  };
  session.on('HeapProfiler.addHeapSnapshotChunk', ({ params }) => mainThread.onChunk(params.chunk));
}
