// A task as it happens (SendStreamingMessage, SubscribeToTask): the task first, then the reply's text as artifact
// chunks while the agent writes it (our stream bus), and a status update each time the turn's state changes, until
// it is done or waits for input. Read from the conversation's live feed (api/live-feed.ts), the one the web chat's
// events come from, so a stream that drops is resumed by SubscribeToTask with nothing lost: GetTask has it all.
import type { AgentClient } from '../../client/agent-client';
import type { LiveEvent } from '../../core/live-events';
import { TaskState, textPart, type StreamResponse, type Task } from '../../endpoints/a2a/sdk';
import type { LiveFeeds } from '../live-feed';
import { INTERRUPTED, taskIdOf, taskOf, TERMINAL } from './turn-tasks';

export interface TaskEvents {
  agents: AgentClient;
  feeds: LiveFeeds;
}

const REPLY = 'reply';

export async function* followTask(
  events: TaskEvents,
  conversationId: string,
  promptId: number,
  /** The client left: stop following. */
  gone?: AbortSignal,
): AsyncGenerator<StreamResponse> {
  const first = await events.agents.feed(conversationId, 0);
  let task = taskOf(conversationId, first, promptId)!;
  yield { payload: { $case: 'task', value: task } };
  if (settled(task)) return;

  const queue: LiveEvent[] = [];
  let ended = false;
  let wake: (() => void) | null = null;
  const close = await events.feeds.open(
    conversationId,
    { next: first.next, attempt: '', offset: 0 },
    (event) => {
      queue.push(event);
      wake?.();
    },
    () => {
      ended = true;
      wake?.();
    },
  );
  const taskId = taskIdOf(conversationId, promptId);
  gone?.addEventListener('abort', () => wake?.(), { once: true });
  try {
    // Whether chunks of the reply were sent: the next one appends. A discarded attempt starts the reply over.
    let written = false;
    for (;;) {
      while (!queue.length && !ended && !gone?.aborted) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      if (gone?.aborted) return;
      const batch = queue.splice(0);
      let changed = ended;
      for (const event of batch) {
        if (event.event === 'token' && task.status?.state === TaskState.TASK_STATE_WORKING) {
          yield chunk(taskId, conversationId, event.data.text, written, false);
          written = true;
        } else if (event.event === 'discard') {
          written = false;
        } else if (event.event !== 'token' && event.event !== 'tool_progress') {
          changed = true;
        }
      }
      if (!changed) continue;
      const next = taskOf(conversationId, await events.agents.feed(conversationId, 0), promptId);
      if (next && next.status?.state !== task.status?.state) {
        task = next;
        if (settled(task)) {
          // The whole reply as the artifact's last chunk, then the final status.
          const reply = task.artifacts.find((a) => a.artifactId === REPLY);
          if (reply)
            yield {
              payload: {
                $case: 'artifactUpdate',
                value: {
                  taskId,
                  contextId: conversationId,
                  artifact: reply,
                  append: false,
                  lastChunk: true,
                  metadata: undefined,
                },
              },
            };
          yield status(task);
          return;
        }
        yield status(task);
      }
      if (ended) return;
    }
  } finally {
    close();
  }
}

function settled(task: Task): boolean {
  const state = task.status!.state;
  return TERMINAL.has(state) || INTERRUPTED.has(state);
}

function status(task: Task): StreamResponse {
  return {
    payload: {
      $case: 'statusUpdate',
      value: { taskId: task.id, contextId: task.contextId, status: task.status, metadata: undefined },
    },
  };
}

function chunk(taskId: string, contextId: string, text: string, append: boolean, lastChunk: boolean): StreamResponse {
  const artifact = {
    artifactId: REPLY,
    name: REPLY,
    description: '',
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
  };
  return {
    payload: {
      $case: 'artifactUpdate',
      value: { taskId, contextId, artifact, append, lastChunk, metadata: undefined },
    },
  };
}
