// The interactive chat: the agent's words, proposed tool calls with their args, approve / edit / reject, and the
// questions running tools ask (a form, a URL, a sampling request), with their progress as they run.
import * as readline from 'node:readline/promises';
import type { AgentClient } from './agent-client';
import { formatHistory, formatHookNotes, formatReply } from './terminal-format';
import type { StreamBus } from '../stream/bus';
import type { AgentReply } from '../core/conversation-types';
import type { ChatMessage } from '../core/types';
import { printStreamedText } from './streamed-text';
import { printToolProgress } from './tool-progress';
import { askQuestion } from './question-prompt';
import { UserError } from '../core/user-error';

export interface ChatIO {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** One JSON object per line instead of text (`agent chat --json`): replies, history, notices; no prompts. */
  json?: boolean;
  /** Where the reply being written can be read (the worker's bus in npm start, Redis with REDIS_URL): printed as it
   * comes. Without it the reply shows once complete. */
  stream?: StreamBus;
}

const HELP = 'Type a message, or /history, /end (end the conversation), /quit (leave; the conversation stays).';

/** Runs until the user quits, the conversation ends, or input closes. */
export async function runChat(client: AgentClient, id: string, first: AgentReply | null, io: ChatIO): Promise<void> {
  const rl = readline.createInterface({ input: io.input, output: io.output, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  const print = (text: string) => io.output.write(io.json ? `${JSON.stringify({ notice: text })}\n` : `${text}\n`);
  const show = (r: AgentReply, streamed: string | null = null) => {
    // Text already printed as it was written is not printed again; the tool call and the end still are.
    const shown = !io.json && streamed !== null && streamed === r.reply ? { ...r, reply: '' } : r;
    const text = io.json ? JSON.stringify(r) : formatReply(shown);
    if (text) io.output.write(`${text}\n`);
  };
  /** Where the transcript was when the last exchange ended: what hooks decided since is shown with the reply. */
  let seen: number | null = null;
  /** Sends, printing the reply's text as it is written when a stream is at hand; then shows the reply. */
  const exchange = async (send: () => Promise<AgentReply>): Promise<AgentReply> => {
    seen ??= (await client.feed(id, Number.MAX_SAFE_INTEGER)).next;
    const streaming = io.stream && !io.json ? printStreamedText(io.stream, id, (t) => io.output.write(t)) : null;
    const progress = io.stream && !io.json ? printToolProgress(io.stream, id, (t) => io.output.write(t)) : null;
    const answer = await whileWaiting(client, id, print, send).finally(() => {
      streaming?.stop();
      progress?.();
    });
    const feed = await client.feed(id, seen);
    seen = feed.next;
    showHooks(feed.messages.map((m) => m.message));
    show(answer, streaming ? streaming.stop() : null);
    return answer;
  };
  /** Hook decisions (a redaction, a guardrail's block) as lines before the reply; one object each with --json. */
  const showHooks = (messages: ChatMessage[]) => {
    for (const m of messages) {
      if (m.kind !== 'note' || !m.hook) continue;
      io.output.write(io.json ? `${JSON.stringify({ hook: m.hook, text: m.text })}\n` : `${formatHookNotes([m])}\n`);
    }
  };
  const ask = async (question: string): Promise<string | null> => {
    if (!io.json) io.output.write(question);
    const next = await lines.next();
    return next.done ? null : next.value.trim();
  };
  if (io.json) io.output.write(`${JSON.stringify({ conversation: id })}\n`);
  else print(`conversation ${id}. ${HELP}`);
  let reply = first;
  if (reply) show(reply);
  try {
    while (!reply?.ended) {
      if (reply?.question) {
        const answered = await askQuestion(reply.question, ask, print);
        if (!answered) return;
        try {
          reply = await exchange(() => client.answer(id, answered));
        } catch (err) {
          if (!(err instanceof UserError) || err.kind !== 'refused') throw err;
          // Refused (the question went, or a newer one came): say why, and ask what is open now, if anything.
          print(err.message);
          const open = (await client.feed(id, Number.MAX_SAFE_INTEGER)).question ?? null;
          reply = { ...reply, question: open };
        }
        continue;
      }
      if (reply?.pendingToolCall) {
        const answer = await ask('approve? [y]es / [e]dit args / [n]o with a reason: ');
        if (answer === null) return;
        const decision = await approvalFrom(answer, reply, ask, print);
        if (!decision) continue;
        reply = await exchange(() => client.confirm(id, decision));
        continue;
      }
      const text = await ask('you> ');
      if (text === null || text === '/quit') return;
      if (!text) continue;
      if (text === '/help') print(HELP);
      else if (text === '/history') {
        const messages = await client.history(id);
        io.output.write(io.json ? `${JSON.stringify({ history: messages })}\n` : `${formatHistory(messages)}\n`);
      } else if (text === '/end') {
        await client.end(id);
        print('(conversation ended)');
        return;
      } else {
        reply = await exchange(() => client.say(id, text));
      }
    }
  } finally {
    rl.close();
  }
}

/** Waits for the agent's reply, saying once if the model is failing meanwhile (the turn goes on retrying). */
async function whileWaiting(
  client: AgentClient,
  id: string,
  print: (s: string) => void,
  send: () => Promise<AgentReply>,
): Promise<AgentReply> {
  let told = false;
  const timer = setInterval(() => {
    if (told) return;
    void client.retrying(id).then(
      (r) => {
        if (r && !told) {
          told = true;
          print(`(the model is not answering: ${r.lastFailure}; retrying…)`);
        }
      },
      () => undefined,
    );
  }, RETRY_CHECK_MS);
  try {
    return await send();
  } finally {
    clearInterval(timer);
  }
}

/** How often the chat looks for a failing model while it waits. */
const RETRY_CHECK_MS = 5_000;

async function approvalFrom(
  answer: string,
  reply: AgentReply,
  ask: (q: string) => Promise<string | null>,
  print: (s: string) => void,
) {
  const callId = reply.pendingToolCall!.call.id;
  const [word, ...rest] = answer.split(/\s+/);
  switch (word?.toLowerCase()) {
    case 'y':
    case 'yes':
      return { approve: true as const, callId };
    case 'n':
    case 'no': {
      const reason = rest.join(' ') || (await ask('reason: ')) || 'declined by the user';
      return { approve: false as const, reason, callId };
    }
    case 'e':
    case 'edit': {
      const json = await ask(`new args as JSON (was ${JSON.stringify(reply.pendingToolCall!.call.args)}): `);
      try {
        const args = JSON.parse(json ?? '') as unknown;
        if (!args || typeof args !== 'object' || Array.isArray(args)) throw new Error('not an object');
        return { approve: true as const, args: args as Record<string, unknown>, callId };
      } catch {
        print('That is not a JSON object; nothing was sent.');
        return null;
      }
    }
    default:
      print('Answer y, e or n.');
      return null;
  }
}
