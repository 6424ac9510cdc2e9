// One run of a scenario through the product's own client (AgentClient, as the CLI and the API use it): start the
// conversation, let the user speak turn by turn, answer every approval the agent asks for, then read what happened
// from the conversation itself (its history and its delegates', the run view's counts) and from the demo data.
import { performance } from 'node:perf_hooks';
import type { AgentClient, HistoryTree } from '../client/agent-client';
import type { AgentReply, PendingApproval } from '../core/conversation-types';
import type { MockStore } from '../tools/define-tool';
import type { ApprovalAnswer, Scenario } from './scenario';
import type { ApprovalSeen, RunObservation, ToolCallSeen } from './observation';
import { confirmOf, type Decision, type EvalUser } from './users';

/** Approvals in a row before the run is called stuck: an agent asking again and again. */
const MAX_APPROVALS_PER_TURN = 10;

export interface PlayInput {
  agents: AgentClient;
  scenario: Scenario;
  user: EvalUser;
  /** The worker's demo data, fresh for this run. */
  store: MockStore;
  conversationId: string;
  /** The whole run's limit; past it the conversation is terminated and the run failed. */
  timeoutMs: number;
}

export async function play(input: PlayInput): Promise<RunObservation> {
  const { agents, scenario, conversationId: id } = input;
  const seen: RunObservation = {
    conversationId: id,
    said: [],
    replies: [],
    approvals: [],
    toolCalls: [],
    steps: 0,
    latenciesMs: [],
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    durationMs: 0,
    ended: false,
    state: {},
  };
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      seen.error = `the run did not finish within ${input.timeoutMs / 1000} s (--timeout)`;
      resolve();
    }, input.timeoutMs);
  });
  const dialogue = converse(input, seen).catch((err: unknown) => {
    seen.error ??= `the conversation failed: ${(err as Error).message}`;
  });
  await Promise.race([dialogue, timedOut]);
  clearTimeout(timer);
  seen.durationMs = performance.now() - started;
  if (seen.error && /within .* \(--timeout\)/.test(seen.error))
    await agents.client.workflow
      .getHandle(id)
      .terminate('eval run timed out')
      .catch(() => undefined);
  await observe(agents, id, scenario.agent, seen).catch((err: unknown) => {
    seen.error ??= `reading the conversation failed: ${(err as Error).message}`;
  });
  seen.state = structuredClone(Object.fromEntries(input.store));
  if (!seen.ended && (await agents.isRunning(id).catch(() => false))) await agents.end(id).catch(() => undefined);
  return seen;
}

/** The dialogue: the user's turns, each answered, approvals settled as they come. */
async function converse(input: PlayInput, seen: RunObservation): Promise<void> {
  const { agents, scenario, user, conversationId: id } = input;
  const timed = async (send: () => Promise<AgentReply>): Promise<AgentReply> => {
    const t = performance.now();
    const reply = await send();
    seen.latenciesMs.push(performance.now() - t);
    seen.replies.push(reply.reply);
    return reply;
  };
  const { greeting } = await agents.start(scenario.agent, id);
  seen.replies.push(greeting?.reply ?? '');
  let reply: AgentReply | null = greeting;
  for (;;) {
    for (let asked = 0; reply?.pendingToolCall; asked++) {
      if (asked === MAX_APPROVALS_PER_TURN) {
        seen.error = `the agent asked for ${asked} approvals in a row (last: ${reply.pendingToolCall.tool})`;
        return;
      }
      const pending: PendingApproval = reply.pendingToolCall;
      const decision = answerOf(scenario.approvals[pending.tool], pending) ?? (await user.decide(pending));
      seen.approvals.push({
        tool: pending.tool,
        args: pending.call.args,
        decision: decision.approve ? 'approved' : 'rejected',
        ...(decision.approve ? {} : { reason: decision.reason }),
      } satisfies ApprovalSeen);
      reply = await timed(() => agents.confirm(id, confirmOf(decision, pending)));
    }
    if (reply?.question) {
      seen.error = `a tool asked the user a question (${reply.question.kind}), which evals cannot answer`;
      return;
    }
    const text = await user.next(reply?.reply ?? '');
    if (text === null) {
      if (user.unfinished) seen.error = user.unfinished;
      return;
    }
    if (reply?.ended) {
      seen.error = `the conversation had ended before the user said "${text}"`;
      return;
    }
    seen.said.push(text);
    reply = await timed(() => agents.say(id, text));
  }
}

/** The scenario's answer to an approval; `{ approve: {…} }` changes those arguments of the proposed call. */
function answerOf(answer: ApprovalAnswer | undefined, pending: PendingApproval): Decision | undefined {
  if (answer === undefined) return undefined;
  if (answer === 'approve') return { approve: true };
  if ('approve' in answer) return { approve: true, args: { ...pending.call.args, ...answer.approve } };
  return { approve: false, reason: answer.reject };
}

/** The tool calls of the conversation and its delegates, the run view's model calls and usage, whether it ended. */
async function observe(agents: AgentClient, id: string, agent: string, seen: RunObservation): Promise<void> {
  seen.toolCalls = callsOf(await agents.historyTree(id), agent);
  const { state } = await agents.status(id);
  seen.ended = state === 'ended';
  const { root } = await agents.run(id);
  seen.steps = root.totals.modelCalls;
  seen.usage = root.totals.usage;
}

function callsOf(tree: HistoryTree, agent: string): ToolCallSeen[] {
  const outcomes = new Map<string, ToolCallSeen['outcome']>();
  for (const m of tree.messages) if (m.kind === 'tool') outcomes.set(m.call.id, m.outcome.status);
  const calls: ToolCallSeen[] = [];
  for (const m of tree.messages) {
    if (m.kind !== 'agent') continue;
    for (const call of m.toolCalls) {
      calls.push({ tool: call.tool, args: call.args, outcome: outcomes.get(call.id) ?? 'none', agent });
      const delegate = tree.delegates.get(call.id);
      if (delegate) calls.push(...callsOf(delegate, delegate.agentName));
    }
  }
  return calls;
}
