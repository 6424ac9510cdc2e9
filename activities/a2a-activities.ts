// AskAgent calls to remote A2A agents (endpoints/a2a/): one activity runs the remote task to its end. Its heartbeat
// details carry the task's id from the moment the remote agent has it, so an attempt on another worker (this one
// died) follows the same task instead of sending the message again. The remote agent's questions go to our user as
// a tool's questions do (tool-questions.ts: the user of a delegate's parent, too), and a cancel reaches the task.
import { CancelledFailure, Context } from '@temporalio/activity';
import type { A2aActivities } from '../core/activity-types';
import type { DelegateEnvelope } from '../core/conversation-types';
import { ZERO_USAGE } from '../core/usage';
import type { RemoteAgents } from '../endpoints/a2a/remote-agents';
import { runRemoteTask, type RemoteTaskRecord, type RemoteTaskResult } from '../endpoints/a2a/remote-task';
import { conversationHost, type ToolQuestionDeps } from './tool-questions';
import { toolPipeline, type CallTool } from './tool-pipeline';

export interface A2aDeps {
  remote: RemoteAgents;
  questions?: ToolQuestionDeps;
}

const BEAT_MS = 2_000;

/** The remote agent's question, as a form with one field: the user's answer. */
const ANSWER_SCHEMA = {
  type: 'object' as const,
  properties: { answer: { type: 'string' as const, title: 'Your answer' } },
  required: ['answer'],
};

export function createA2aActivities(
  { remote, questions = {} }: A2aDeps,
  callTool: CallTool = toolPipeline({}),
): A2aActivities {
  return {
    askRemoteAgent: ({ name, agent, contextId, args, owner, goalId, userConversation }) =>
      callTool({ tool: name, args, owner, goalId, observed: { tool: 'task', endpoint: agent } }, async (args) => {
        const ctx = Context.current();
        let found: Awaited<ReturnType<RemoteAgents['client']>>;
        try {
          found = await remote.client(agent);
        } catch (err) {
          // Gone from the registry, or its card unreadable: said to the model at once, not retried for minutes.
          return { final: { status: 'tool_error', error: (err as Error).message } };
        }
        const { client, entry } = found;
        const resumed = ctx.info.heartbeatDetails as RemoteTaskRecord | undefined;
        let at = resumed;
        // Every beat carries where the task is: a beat without details would erase them.
        const beat = setInterval(() => ctx.heartbeat(at), BEAT_MS);
        // The user is told which agent asks (`a2a:<name> asks: …`).
        const host = conversationHost(questions, {
          tool: `a2a:${agent}`,
          server: agent,
          sampling: 'deny',
          goalId,
          userConversation,
        });
        try {
          const result = await runRemoteTask(client, String(args.task ?? ''), {
            ...(resumed ? { resumed } : {}),
            ...(contextId ? { contextId } : {}),
            record: (next) => {
              at = next;
              ctx.heartbeat(next);
            },
            ask: async (question) => {
              const answer = await host.elicit(
                { mode: 'form', message: question, requestedSchema: ANSWER_SCHEMA },
                ctx.cancellationSignal,
              );
              return answer.action === 'accept' ? String(answer.content?.answer ?? '') : null;
            },
            // The run too: activity ids start again after a continue-as-new.
            key: `${ctx.info.workflowExecution?.workflowId}/${ctx.info.workflowExecution?.runId}/${ctx.info.activityId}`,
            signal: ctx.cancellationSignal,
            userCancelled: () => !!ctx.cancellationDetails?.cancelRequested,
            timeoutMs: entry.timeoutMs,
          });
          return { outcome: { status: 'ok', result: { ...envelopeOf(result), remote: { agent, ...taskOf(result) } } } };
        } catch (err) {
          if (ctx.cancellationDetails?.cancelRequested)
            throw new CancelledFailure('Cancelled by the user.', [], err as Error);
          throw err;
        } finally {
          clearInterval(beat);
        }
      }),
  };
}

/** The remote task's end as AskAgent answers for any delegate: {status, summary, data?}. */
function envelopeOf(result: RemoteTaskResult): DelegateEnvelope {
  const status = result.state === 'completed' ? 'ok' : result.state === 'canceled' ? 'cancelled' : 'error';
  return {
    status,
    summary: result.text,
    ...(result.data ? { data: result.data.length === 1 ? result.data[0] : result.data } : {}),
    usage: ZERO_USAGE,
  };
}

function taskOf(result: RemoteTaskResult) {
  return { state: result.state, ...(result.taskId ? { taskId: result.taskId, contextId: result.contextId } : {}) };
}
