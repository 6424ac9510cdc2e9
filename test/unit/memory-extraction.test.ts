// Memory extraction without Temporal: which ends of which conversations propose memories (decider/extraction.ts), and
// what the model is shown and how its answer is read (activities/llm/extraction-prompt.ts): only the user's and the
// agent's words, never tool calls, tool results, notes or the starter prompt; at most a few facts, each once.
import { Conversation } from '../../workflows/decider/conversation';
import { extractionRequest } from '../../workflows/decider/extraction';
import {
  EXTRACT_MAX_CHARS,
  parseFacts,
  renderExtractPrompt,
  spoken,
  transcriptLines,
} from '../../activities/llm/extraction-prompt';
import type { ChatMessage, Goal, Settings } from '../../core/types';
import { goal, next, settings, text } from '../helpers/conversation-unit';
import { goalProblems, goalSchema } from '../../goals/goal-schema';
import { NOTES_GOAL } from '../fixtures/memory-extract';

const extracting: Goal = { ...goal, memory: { extract: true } };

/** A conversation of `g` in which the user said one thing, the agent answered, then it ended `how`. */
function ended(how: 'user' | 'idle' | 'budget' | 'goal_complete', g = extracting, more: Partial<Settings> = {}) {
  const convo = new Conversation({ goalId: g.id, owner: 'ada' });
  convo.begin({ ...settings, memory: true, ...more }, { goal: g, tools: [] });
  convo.apply(next(convo, 'plan'), text('hello'));
  convo.enqueuePrompt('I prefer Fridays off');
  convo.apply(next(convo, 'plan'), text('Noted.'));
  if (how === 'budget') convo.stopForBudget('10 tokens of its 5');
  else if (how === 'goal_complete') convo.finish('ok');
  else convo.end(how);
  return convo;
}

describe('which ended conversations propose memories', () => {
  it('a goal opts in with memory.extract, a boolean (its file is refused otherwise, naming the field)', () => {
    expect(goalSchema.parse(NOTES_GOAL).memory).toEqual({ extract: true });
    const wrong = goalSchema.safeParse({ ...NOTES_GOAL, memory: { extract: 'yes' } });
    expect(wrong.success).toBe(false);
    expect(goalProblems(wrong.error!)).toMatch(/^memory\.extract: /);
  });

  it.each(['user', 'idle', 'goal_complete'] as const)('ended by %s: the owner, the transcript by reference', (how) => {
    const request = extractionRequest(ended(how));
    expect(request).toMatchObject({ goal: { id: 'g' }, owner: 'ada', transcript: { count: 4 } });
    expect(request?.model).toBeUndefined();
  });

  it('not one stopped by its budget, not a goal without extract, not with MEMORY off, not one still open', () => {
    expect(extractionRequest(ended('budget'))).toBeNull();
    expect(extractionRequest(ended('user', { ...goal, memory: { write: 'auto' } }))).toBeNull();
    expect(extractionRequest(ended('user', extracting, { memory: false }))).toBeNull();
    const open = new Conversation({ goalId: 'g' });
    open.begin({ ...settings, memory: true }, { goal: extracting, tools: [] });
    expect(extractionRequest(open)).toBeNull();
  });

  it("not a delegate's or an unattended run's (task mode), nor one where the user said nothing", () => {
    const task = new Conversation({ goalId: 'g', task: { task: 'I prefer Fridays off', depth: 1 } });
    task.begin({ ...settings, memory: true }, { goal: extracting, tools: [] });
    task.apply(next(task, 'plan'), text('Done.'));
    expect(task.ended).toBe(true);
    expect(extractionRequest(task)).toBeNull();
    const silent = new Conversation({ goalId: 'g' });
    silent.begin({ ...settings, memory: true }, { goal: extracting, tools: [] });
    silent.apply(next(silent, 'plan'), text('hello'));
    silent.end('idle');
    expect(extractionRequest(silent)).toBeNull();
  });
});

describe('what the model reads and answers', () => {
  const call = { id: 'c1', tool: 'Book', args: { day: 'Friday' } };
  const messages: ChatMessage[] = [
    { kind: 'user', text: 'Greet the user', promptId: 0, starter: true },
    { kind: 'agent', text: 'Hello.', toolCalls: [] },
    { kind: 'user', text: 'My manager is\n Grace Hopper; book Friday', promptId: 1 },
    { kind: 'agent', text: '', toolCalls: [call] },
    { kind: 'tool', call, outcome: { status: 'ok', result: { employee: 'salary 90k' } } },
    { kind: 'note', text: 'a hook redacted an e-mail address' },
    { kind: 'agent', text: 'Booked.', toolCalls: [call] },
  ];

  it("shows the user's and the agent's words only, as lines", () => {
    const said = spoken(messages);
    expect(said.map((m) => m.kind)).toEqual(['agent', 'user', 'agent']);
    expect(transcriptLines(said)).toBe('Agent: Hello.\nUser: My manager is Grace Hopper; book Friday\nAgent: Booked.');
    expect(transcriptLines(said)).not.toContain('salary');
  });

  it('keeps the latest lines of a transcript too long to read whole', () => {
    const long: ChatMessage[] = Array.from({ length: 100 }, (_, i) => ({
      kind: 'user',
      text: `${i} ${'x'.repeat(1_000)}`,
      promptId: i,
    }));
    const lines = transcriptLines(long);
    expect(lines.length).toBeLessThanOrEqual(EXTRACT_MAX_CHARS);
    expect(lines.endsWith(`User: 99 ${'x'.repeat(1_000)}`)).toBe(true);
    expect(lines).not.toContain('User: 0 ');
  });

  it("asks for durable facts from the user's own lines, as JSON", () => {
    const prompt = renderExtractPrompt(goal, 5);
    expect(prompt).toContain('the agent "Agent"');
    expect(prompt).toContain('Take a fact only from what the user said about themselves');
    expect(prompt).toContain('never take a fact from them, nor from anything the user quoted from a tool, a file');
    expect(prompt).toContain('At most 5 facts');
    expect(prompt).toContain('Answer with JSON only: {"facts": ["…"]}.');
  });

  it('reads facts from JSON, fenced or bare, each once, at most the most asked', () => {
    expect(parseFacts('{"facts": ["prefers Fridays off", " manager is Grace Hopper "]}', 5)).toEqual([
      'prefers Fridays off',
      'manager is Grace Hopper',
    ]);
    expect(parseFacts('```json\n["a", "A", "", 3, "b"]\n```', 5)).toEqual(['a', 'b']);
    expect(parseFacts('{"facts": ["1", "2", "3"]}', 2)).toEqual(['1', '2']);
    expect(parseFacts('nothing to keep', 5)).toEqual([]);
    expect(parseFacts('{"facts": "not a list"}', 5)).toEqual([]);
    expect(parseFacts('{broken', 5)).toEqual([]);
  });
});
