// What the API benchmarks drive: an API (in this process beside its worker, as `npm start` runs them, or alone in a
// process of its own with Redis between them) and the worker's timed stream bus; plus the few calls they make.
import type { AgentReply } from '../core/conversation-types';
import type { TimedBus } from './timed-bus';

export interface ApiStack {
  /** Names the bus in the tables: "in-process" or "Redis". */
  label: string;
  url: string;
  /** The worker's bus: when each delta was published. */
  bus: TimedBus;
}

export async function postJson(url: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}

/** Starts a conversation through the API (the greeting is awaited); throws unless it answers 201. */
export async function startConversation(stack: ApiStack, conversationId: string, goalId: string): Promise<void> {
  const res = await postJson(`${stack.url}/api/conversations`, { conversationId, goalId });
  if (res.status !== 201) throw new Error(`POST /api/conversations: HTTP ${res.status} ${JSON.stringify(res.body)}`);
}

/** A turn through POST /api/conversations/{id}/messages (wait=true): the reply, once the agent answered. */
export async function sendMessage(
  stack: Pick<ApiStack, 'url'>,
  conversationId: string,
  text: string,
): Promise<AgentReply> {
  const res = await postJson(`${stack.url}/api/conversations/${encodeURIComponent(conversationId)}/messages`, { text });
  if (res.status !== 200) throw new Error(`POST …/messages: HTTP ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as AgentReply;
}

/** Ends a conversation, best effort (its event streams close with it). */
export async function endConversation(stack: ApiStack, conversationId: string): Promise<void> {
  await postJson(`${stack.url}/api/conversations/${encodeURIComponent(conversationId)}/end`, {}).catch(() => undefined);
}

export const eventsUrl = (stack: ApiStack, conversationId: string) =>
  `${stack.url}/api/conversations/${encodeURIComponent(conversationId)}/events`;
