// The run view's fold over recorded histories: turns, steps, waits, delegates and totals as the workflows recorded
// them (no server: the histories in test/histories/ were recorded from real runs).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { defaultPayloadConverter } from '@temporalio/common';
import { foldHistory, type PendingAttempt } from '../../views/run-view/history-fold';
import { assemble, temporalUrl } from '../../views/run-view/run-reader';
import { isModelCall, modelAnswer } from '../../views/run-view/steps';
import type { RunBranch, RunStep } from '../../core/run-view';
import { formatRun } from '../../client/run-tree-format';

const DIR = path.join(__dirname, '..', 'histories');

function fold(file: string, workflowId = file, pending?: Map<string, PendingAttempt>, cut?: number): RunBranch {
  const history = historyFromJSON(JSON.parse(readFileSync(path.join(DIR, file), 'utf8')));
  return foldHistory((history.events ?? []).slice(0, cut), {
    workflowId,
    runId: 'r1',
    decode: (p) => (p?.payloads ?? []).map((x) => defaultPayloadConverter.fromPayload(x)),
    ...(pending ? { pending } : {}),
  });
}

const outline = (b: RunBranch) => b.turns.map((t) => t.steps.map((s) => `${s.kind}:${s.label}:${s.status}`));

test('a conversation with tools, a refusal, approvals given and refused, and a tool error', () => {
  const run = fold('pto-approvals-and-errors.json');
  expect(run).toMatchObject({ goalId: 'goal_hr_pto', agentName: 'PTO assistant', status: 'done', state: 'ended' });
  expect(run.turns.map((t) => t.prompt)).toEqual([
    '',
    'What is my balance for ada@example.com?',
    'order me a pizza',
    'book 2026-12-21 to 2026-12-22 for ada@example.com',
    'book 2026-12-28 to 2026-12-29 for ada@example.com',
    'book some days',
    'plan 2026-12-21 to 2026-12-24 for grace@example.com',
    'What is my balance for nobody@example.com?',
    'that is all',
  ]);
  const [, balance, pizza, refused, booked, , , unknown] = run.turns;
  expect(balance!.steps.map((s) => `${s.kind}:${s.label}`)).toEqual([
    'model:check the prompt fits',
    'model:plan the next step',
    'tool:CurrentPTO',
    'model:plan the next step',
  ]);
  expect(balance!.steps[1]!.detail).toBe('asks for CurrentPTO');
  expect(pizza!.steps[0]!.detail).toBe('does not fit: I can only help with paid time off.');
  // Recorded before AgentState was kept: the wait runs from the proposal to the answer.
  expect(refused!.steps[2]).toMatchObject({ kind: 'approval', label: 'BookPTO', detail: 'declined: wrong week' });
  expect(booked!.steps.map((s) => `${s.kind}:${s.label}:${s.detail ?? ''}`)).toEqual([
    'model:check the prompt fits:',
    'model:plan the next step:asks for BookPTO',
    'approval:BookPTO:approved',
    'tool:BookPTO:',
    'model:plan the next step:Booked 2026-12-28 to 2026-12-28; 96 hours left.',
  ]);
  expect(unknown!.steps[2]).toMatchObject({
    kind: 'tool',
    status: 'failed',
    detail: 'No employee with email nobody@example.com.',
  });
  // Totals: every model call's tokens, once.
  expect(run.totals.modelCalls).toBe(23);
  expect(run.totals.toolCalls).toBe(5);
  expect(run.totals.usage.totalTokens).toBe(17_038);
  expect(run.totals.waitMs).toBe(booked!.totals.waitMs + refused!.totals.waitMs);
  expect(run.totals.durationMs).toBe(run.turns.reduce((n, t) => n + t.totals.durationMs, 0));
});

test("delegates: the parent's AskAgent steps carry the children's branches, totals roll up", () => {
  const parentId = 'replay-delegation';
  const parent = fold('delegation.json', parentId);
  const childId = `${parentId}/3-goal_hr_pto`;
  const child = fold('delegation-child.json', childId);
  expect(outline(parent)[1]).toEqual([
    'model:check the prompt fits and plan the next step:done',
    'delegate:goal_hr_pto:done',
    'delegate:goal_order_status:done',
    'model:plan the next step:done',
  ]);
  expect(outline(child)).toEqual([
    ['model:plan the next step:done', 'approval:BookPTO:done', 'tool:BookPTO:done', 'model:plan the next step:done'],
  ]);
  const step = parent.turns.flatMap((t) => t.steps).find((s) => s.id === childId);
  expect(step).toBeDefined();
  const tree = assemble(
    parentId,
    new Map([
      [parentId, parent],
      [childId, child],
    ]),
    Date.now(),
    {
      url: 'http://ui:8233/',
      namespace: 'default',
    },
  );
  const hung = tree.turns.flatMap((t) => t.steps).find((s) => s.id === childId)!;
  expect(hung.label).toBe('PTO assistant');
  expect(hung.branch?.totals.modelCalls).toBe(2);
  expect(tree.totals.modelCalls).toBe(parent.totals.modelCalls + child.totals.modelCalls);
  expect(tree.totals.usage.totalTokens).toBe(parent.totals.usage.totalTokens + child.totals.usage.totalTokens);
  expect(tree.totals.toolCalls).toBe(1);
  expect(tree.temporalUrl).toBe(temporalUrl({ url: 'http://ui:8233', namespace: 'default' }, tree));
  expect(hung.branch?.temporalUrl).toBe(
    `http://ui:8233/namespaces/default/workflows/${encodeURIComponent(childId)}/r1/history`,
  );
});

test('SearchTools, drafts, made tools, questions and HTTP API calls are steps of their own kind', () => {
  expect(outline(fold('search-tools.json'))[1]).toEqual([
    'model:plan the next step:done',
    'search:SearchTools:done',
    'model:plan the next step:done',
    'tool:toolbox__calendar_create_event:done',
    'model:plan the next step:done',
  ]);
  expect(fold('search-tools.json').turns[1]!.steps[1]!.detail).toBe(
    '"schedule a meeting with the design team": 5 found',
  );
  const made = fold('create-tool.json').turns[1]!.steps;
  expect(made.map((s) => `${s.kind}:${s.label}`)).toEqual([
    'model:plan the next step',
    'draft:CreateTool: check the draft',
    'approval:CreateTool',
    'draft:CreateTool: write the tool',
    'model:plan the next step',
    'tool:extract_urls',
    'model:plan the next step',
  ]);
  expect(made[5]!.detail).toBe('made tool v1');
  // The picker's own listing at the start is not a step; the ListAgents the model asked for is.
  expect(outline(fold('create-agent.json'))[0]).toEqual([
    'model:plan the next step:done',
    'tool:ListAgents:done',
    'model:plan the next step:done',
  ]);
  const asked = fold('tool-questions.json').turns[3]!.steps;
  expect(asked.find((s) => s.kind === 'question')).toMatchObject({ label: 'asking__greet', detail: 'decline' });
  expect(fold('http-api-call.json').turns[1]!.steps[1]).toMatchObject({
    label: 'trains__searchJourneys',
    detail: 'trains',
  });
});

test('a run cut mid-turn: the running step, its attempt and last failure from the pending activities', () => {
  const history = historyFromJSON(JSON.parse(readFileSync(path.join(DIR, 'pto-approvals-and-errors.json'), 'utf8')));
  const events = history.events ?? [];
  // Up to CurrentPTO's scheduling (before it started or completed).
  const cut = events.findIndex((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'CurrentPTO') + 1;
  const activityId = events[cut - 1]!.activityTaskScheduledEventAttributes!.activityId!;
  const run = fold(
    'pto-approvals-and-errors.json',
    'w',
    new Map([[activityId, { attempt: 2, lastFailure: 'activity Heartbeat timeout' }]]),
    cut,
  );
  expect(run.status).toBe('running');
  const turn = run.turns.at(-1)!;
  expect(turn.status).toBe('running');
  expect(turn.steps.at(-1)).toMatchObject({
    kind: 'tool',
    label: 'CurrentPTO',
    status: 'running',
    attempt: 2,
    lastFailure: 'activity Heartbeat timeout',
  });
  expect(turn.steps.at(-1)!.endedAt).toBeUndefined();
});

test('prompts queued while a turn runs start their own turns when taken up, across continue-as-new', () => {
  // Three prompts sent at once: the first run answers one and carries the other two into the next run.
  const first = fold('continue-as-new-first-run.json');
  expect(first.turns.map((t) => [t.prompt, t.steps.length])).toEqual([['balance for ada@example.com', 4]]);
  const next = fold('continue-as-new-last-run.json');
  expect(next.turns.map((t) => t.prompt)).toEqual([expect.stringMatching(/^balance for /)]);
  expect(next.turns[0]!.steps[0]).toMatchObject({ kind: 'model', label: 'check the prompt fits' });
});

test('every model call is known as one (AgentClient.retrying reports those being retried)', () => {
  expect(['planTurn', 'vetAndPlan', 'validatePrompt', 'summarizeConversation'].map(isModelCall)).toEqual([
    true,
    true,
    true,
    true,
  ]);
  expect(['CurrentPTO', 'callMcpTool', 'toString', undefined].map(isModelCall)).toEqual([false, false, false, false]);
});

test('native tools run as local activities show as tool steps, with their time and outcome', () => {
  const run = fold('local-native-tools.json');
  const [, balance, unknown, booked] = run.turns;
  expect(outline(run).slice(1)).toEqual([
    ['model:plan the next step:done', 'tool:CurrentPTO:done', 'model:plan the next step:done'],
    ['model:plan the next step:done', 'tool:CurrentPTO:failed', 'model:plan the next step:done'],
    ['model:plan the next step:done', 'approval:BookPTO:done', 'tool:BookPTO:done', 'model:plan the next step:done'],
  ]);
  const local = balance!.steps[1]!;
  expect(local.id).toMatch(/^al\d+$/);
  expect(Date.parse(local.endedAt!)).toBeGreaterThanOrEqual(Date.parse(local.startedAt));
  expect(unknown!.steps[1]!.error).toMatch(/nobody@example\.com/);
  expect(booked!.steps[2]!.id).toMatch(/^al\d+$/);
});

test('a builtin with an activity of its own is a step of that tool (ReadFile, RunCode)', () => {
  const steps = (file: string) => outline(fold(file)).flat();
  expect(steps('read-file.json').filter((s) => s.startsWith('tool:'))).toEqual(['tool:ReadFile:done']);
  expect(steps('run-code.json').filter((s) => s.startsWith('tool:'))).toEqual([
    'tool:RunCode:done',
    'tool:RunCode:failed',
  ]);
});

test('a model step carries the ids of the memories its call was shown; `agent run` lists them', () => {
  // Recorded: Remember approved and written, then two turns whose plans were shown the memory it kept.
  const run = fold('memory-remember.json');
  const models = run.turns.flatMap((t) => t.steps).filter((s) => s.kind === 'model');
  const id = 'mem_b1a7dc45bbfc0a21';
  expect(models.map((s) => s.memories)).toEqual([undefined, undefined, [id], [id]]);
  const printed = formatRun({ root: run, at: run.endedAt! }).split('\n');
  expect(printed.filter((line) => line.trim() === `recalled 1 memory: ${id}`)).toHaveLength(2);

  // vetAndPlan recalls for the plan it makes while the prompt is checked: the plan's ids are the step's.
  const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
  const step = (): RunStep => ({ id: 'a1', kind: 'model', label: 'plan', status: 'done', startedAt: run.startedAt });
  const vetted = step();
  const plan = { text: 'ok', toolCalls: [], usage, memories: [id, 'mem_0123456789abcdef'] };
  modelAnswer(vetted, { valid: true, reply: '', usage, plan });
  expect(vetted.memories).toEqual([id, 'mem_0123456789abcdef']);
  // None shown: no list at all, so the page and the terminal say nothing of memories.
  const plain = step();
  modelAnswer(plain, { text: 'ok', toolCalls: [], usage, memories: [] });
  expect('memories' in plain).toBe(false);
});

test('the memories proposed at a conversation’s end are a model step of its last turn, saying how many', () => {
  // Recorded: a goal with memory.extract, the user said one lasting thing, then ended the chat.
  const run = fold('memory-extract.json');
  expect(run).toMatchObject({ goalId: 'goal_notes', status: 'done', state: 'ended' });
  const last = run.turns.at(-1)!;
  expect(last.prompt).toBe('I prefer Fridays off');
  const proposal = last.steps.at(-1)!;
  expect(proposal).toMatchObject({
    kind: 'model',
    label: 'propose memories from the conversation',
    status: 'done',
    detail: 'proposed 1 memory',
  });
  expect(proposal.usage?.inputTokens).toBeGreaterThan(0);
});
