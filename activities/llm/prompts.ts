// Prompts are rendered here, in activities, from structured state by small pure functions; the workflow keeps
// structured messages only. Snapshot-tested in test/unit/prompts.test.ts.
import { WEEKDAYS, weekdayOf } from '../../core/days';
import type { AgentSummary, ChatMessage, Goal, ToolSpec } from '../../core/types';
import { outcomeInWords } from '../../core/tool-content';

export function renderPlanSystemPrompt(input: {
  goal: Goal;
  tools: ToolSpec[];
  summary: string;
  agents: AgentSummary[];
  /** The worker's today (YYYY-MM-DD), so "next Monday" means a day: a model knows no date of its own. */
  today: string;
}): string {
  const { goal, tools, summary, agents, today } = input;
  const toolNames = new Set(tools.map((t) => t.name));
  const lines = [
    `You are "${goal.agentName}", an agent working toward this goal:`,
    goal.description,
    '',
    'How to work:',
    '- Act through the tools you are given. Call a tool only when you have every required argument.',
    '- Never invent argument values: when one is missing, ask the user for it in plain words.',
    '- A tool result is JSON with a "status": "ok" carries the result; "invalid_input" lists what was wrong ' +
      '(ask the user for anything "missing"); "tool_error" says why the tool failed; "rejected" means the user ' +
      'declined the call: do not repeat it, ask what they want instead.',
    '- After a tool result, either call the next tool or answer the user briefly.',
    `- Today is ${capitalised(WEEKDAYS[weekdayOf(today)]!)} ${today}: read "next Monday", "tomorrow" and the like ` +
      'from it, and give tools dates as YYYY-MM-DD.',
  ];
  if (toolNames.has('CompleteGoal')) {
    lines.push('- When the goal is achieved and the user needs nothing more, call CompleteGoal.');
  }
  if (toolNames.has('ChangeGoal')) {
    lines.push(
      "- When the user's request matches another agent, call ChangeGoal with its goalId at once; ask only when " +
        'the request is ambiguous.',
    );
  }
  if (toolNames.has('SearchTools')) {
    lines.push(
      '- You are shown only some of your tools. When you need one you do not see, call SearchTools with what it ' +
        'should do; the tools it finds can be called at once, for the rest of this request.',
    );
  }
  if (toolNames.has('AskAgent')) {
    lines.push(
      '- Hand sub-tasks to the agents AskAgent lists, with every detail each needs. Independent sub-tasks go in one ' +
        'step (several AskAgent calls at once: they run in parallel). Each answers {status, summary, data?}: ' +
        'combine the answers for the user; on "needs_input" ask the user what is missing.',
    );
  }
  if (toolNames.has('AskUser')) {
    lines.push(
      '- Another agent gave you this task: do it with your tools, then answer with the result in a few sentences ' +
        '(that answer goes back to it). Call AskUser only for what you cannot do without.',
    );
  }
  if (agents.length > 0) {
    lines.push('', 'Agents available:', ...agents.map((a) => `- ${a.goalId}: ${a.agentName}: ${a.description}`));
  }
  lines.push('', 'Example conversation:', goal.exampleConversation);
  // Last: the one part that changes within a conversation (at a continue-as-new), so the part before it stays a
  // stable prefix the provider can cache (splitPlanSystemPrompt).
  if (summary) lines.push('', SUMMARY_HEADING, summary);
  return lines.join('\n');
}

function capitalised(word: string): string {
  return word[0]!.toUpperCase() + word.slice(1);
}

const SUMMARY_HEADING = 'Summary of the conversation so far (older messages were condensed):';

/**
 * The planning system prompt as its stable part (the same for every turn of the goal: the cacheable prefix) and the
 * summary after it. A prompt a hook rewrote without the summary's heading is all stable.
 */
export function splitPlanSystemPrompt(system: string): { stable: string; summary?: string } {
  const at = system.lastIndexOf(`\n\n${SUMMARY_HEADING}\n`);
  return at < 0 ? { stable: system } : { stable: system.slice(0, at), summary: system.slice(at + 2) };
}

export function renderValidateSystemPrompt(goal: Goal, agents: AgentSummary[] = []): string {
  const others = agents.filter((a) => a.goalId !== goal.id);
  return [
    `You check whether a user's message fits the goal of the agent "${goal.agentName}":`,
    goal.description,
    '',
    'Messages that answer the agent, give requested details, greet, or ask about the goal fit it. Messages ' +
      'about unrelated topics do not.',
    ...(others.length
      ? [
          'Requests that one of these other agents handles also fit (the conversation will switch to it): ' +
            others.map((a) => `${a.agentName} (${a.description})`).join('; ') +
            '.',
        ]
      : []),
    'Answer with JSON only, no prose: {"valid": true} when it fits, or {"valid": false, "reply": "<one or two ' +
      'friendly sentences steering the user back to what this agent can do>"}.',
  ].join('\n');
}

export function renderSummaryPrompt(goal: Goal, previousSummary: string, messages: ChatMessage[]): string {
  return [
    `Condense this conversation with the agent "${goal.agentName}" into at most 200 words.`,
    'Keep every fact a later turn may need: names, emails, ids, dates, amounts, decisions, tool results.',
    previousSummary ? `Earlier summary:\n${previousSummary}` : '',
    'Messages:',
    ...messages.map(renderLine),
  ]
    .filter(Boolean)
    .join('\n');
}

/** One message as a transcript line, for summaries and logs. */
export function renderLine(m: ChatMessage): string {
  switch (m.kind) {
    case 'user':
      return `user: ${m.text}`;
    case 'agent':
      return `agent: ${m.text}${m.toolCalls.map((c) => ` [calls ${c.tool} ${JSON.stringify(c.args)}]`).join('')}`;
    case 'tool':
      return `tool ${m.call.tool}: ${JSON.stringify(outcomeInWords(m.outcome))}`;
    case 'note':
      return `note: ${m.text}`;
  }
}
