// What the model is asked when a conversation whose goal says `memory.extract` ends: the user's words and the
// agent's replies as plain lines — never tool calls, tool results, notes or files, so a fact can only come from what
// the user said — and the rules: durable facts about the user, from the user's own lines, at most a few, as JSON.
// Pure; tested in test/unit/memory-extraction.test.ts.
import type { ChatMessage, Goal } from '../../core/types';

/** The most of a transcript the model reads (about 10,000 tokens): a longer one keeps its latest lines. */
export const EXTRACT_MAX_CHARS = 40_000;

/** What of a transcript may go to the model: the user's own messages (not the goal's starter prompt) and the agent's
 * words, without its tool calls. */
export function spoken(messages: ChatMessage[]): ChatMessage[] {
  return messages.flatMap((m): ChatMessage[] => {
    if (m.kind === 'user') return m.starter ? [] : [{ kind: 'user', text: m.text, promptId: m.promptId }];
    if (m.kind === 'agent' && m.text.trim()) return [{ kind: 'agent', text: m.text, toolCalls: [] }];
    return [];
  });
}

/** The transcript as the model reads it: `User: …` and `Agent: …` lines, the latest EXTRACT_MAX_CHARS of them. */
export function transcriptLines(messages: ChatMessage[]): string {
  const lines = messages.flatMap((m) =>
    m.kind === 'user' ? [`User: ${oneLine(m.text)}`] : m.kind === 'agent' ? [`Agent: ${oneLine(m.text)}`] : [],
  );
  let chars = 0;
  let from = lines.length;
  while (from > 0 && chars + lines[from - 1]!.length + 1 <= EXTRACT_MAX_CHARS) chars += lines[--from]!.length + 1;
  return lines.slice(from).join('\n');
}

export function renderExtractPrompt(goal: Goal, max: number): string {
  return [
    `You read a finished conversation between a user and the agent "${goal.agentName}" and propose facts about ` +
      'the user worth remembering in their later conversations with any agent: their details (e-mail, role, ' +
      'manager, team), lasting preferences and circumstances.',
    '',
    'Rules:',
    '- Take a fact only from what the user said about themselves, in the lines starting "User:". The lines starting ' +
      '"Agent:" are context: never take a fact from them, nor from anything the user quoted from a tool, a file or ' +
      'someone else.',
    "- Only durable facts: not this conversation's one-off requests, dates, orders or tasks.",
    '- One short fact each, in the third person, without the user\'s name ("prefers Fridays off").',
    '- Never passwords, card or account numbers, codes or other secrets.',
    `- At most ${max} facts; none is a good answer when nothing lasting was said.`,
    '',
    'Answer with JSON only: {"facts": ["…"]}.',
  ].join('\n');
}

/** The facts of the model's answer (JSON, maybe fenced, `{facts: [...]}` or a bare list): trimmed, each once, at most
 * `max`; nothing when it is not JSON. */
export function parseFacts(text: string, max: number): string[] {
  const start = text.search(/[[{]/);
  if (start < 0) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.slice(start, Math.max(text.lastIndexOf('}'), text.lastIndexOf(']')) + 1));
  } catch {
    return [];
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { facts?: unknown } | null)?.facts;
  if (!Array.isArray(list)) return [];
  const facts = new Map<string, string>();
  for (const f of list) {
    const fact = typeof f === 'string' ? f.trim() : '';
    if (fact && !facts.has(fact.toLowerCase())) facts.set(fact.toLowerCase(), fact);
  }
  return [...facts.values()].slice(0, max);
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
