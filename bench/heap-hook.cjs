/* global require, process */
// Loaded into the compiled worker by the bench's memory part (NODE_OPTIONS=--require=…/heap-hook.cjs), never by the
// product. On SIGURG (ignored by default; Temporal's runtime shuts the worker down on SIGUSR2), through the inspector
// (the workflow thread, where Temporal runs every cached conversation in one V8 context, through its NodeWorker
// domain): both threads' garbage collected as V8 collects it when memory is low — what it does by itself once the
// worker has been idle 35–60 s — then $HEAP_HOOK_PREFIX-gc-<n>.json written with the memory figures. (Heap snapshots
// on SIGWINCH, and the tools that read them, are in git: `git checkout ae21cd1 -- bench`.)
/* eslint-disable @typescript-eslint/no-require-imports */
const { isMainThread } = require('node:worker_threads');
const { Session } = require('node:inspector');
const { renameSync, writeFileSync } = require('node:fs');

if (isMainThread && process.env.HEAP_HOOK_PREFIX) {
  const prefix = process.env.HEAP_HOOK_PREFIX;
  let collected = 0;
  const session = new Session();
  session.connect();
  /** The worker threads the inspector attached to, by session id (the worker starts one: the workflow thread). */
  const workers = new Map();
  session.on('NodeWorker.attachedToWorker', ({ params }) => workers.set(params.sessionId, params.workerInfo));
  session.post('NodeWorker.enable', { waitForDebuggerOnStart: false });

  let collecting = false;
  process.on('SIGURG', () => {
    if (collecting) return;
    collecting = true;
    collect()
      .catch((err) => process.stderr.write(`garbage collection failed: ${err.stack ?? err}\n`))
      .finally(() => (collecting = false));
  });

  /** Both threads' garbage collected, then -gc-<n>.json written. */
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

  function memory() {
    const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
    return { rss, mainThread: { heapUsed, heapTotal, external, arrayBuffers } };
  }

  /** The inspector protocol in the worker thread `sessionId`, through the main thread's session. */
  function inWorker(sessionId) {
    let nextId = 1;
    const replies = new Map();
    const onMessage = ({ params }) => {
      if (params.sessionId !== sessionId) return;
      const msg = JSON.parse(params.message);
      if (msg.id !== undefined) replies.get(msg.id)?.(msg);
    };
    session.on('NodeWorker.receivedMessageFromWorker', onMessage);
    return {
      send: (method, params = {}) =>
        new Promise((resolve, reject) => {
          const id = nextId++;
          replies.set(id, (msg) => (msg.error ? reject(new Error(msg.error.message)) : resolve(msg.result)));
          session.post('NodeWorker.sendMessageToWorker', {
            sessionId,
            message: JSON.stringify({ id, method, params }),
          });
        }),
      close: () => session.off('NodeWorker.receivedMessageFromWorker', onMessage),
    };
  }

  /** The same for this (the main) thread. */
  const mainThread = {
    send: (method, params = {}) =>
      new Promise((resolve, reject) =>
        session.post(method, params, (err, result) => (err ? reject(err) : resolve(result))),
      ),
  };
}
