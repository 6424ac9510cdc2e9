// `npm run record-histories`: runs representative conversations on a real dev server and saves their event
// histories to test/histories/. The replay test replays them against the current workflow code, so a change
// that would break running conversations fails CI. Re-record only when behaviour changes on purpose.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import type { WorkflowHandle } from '@temporalio/client';
import { AgentClient } from '../client/agent-client';
import { describeWorkflowId } from '../workflows/describe-workflows';
import {
  answerQuestionUpdate,
  cancelTurnUpdate,
  changeGoalSignal,
  delegationsQuery,
  endChatSignal,
  statusQuery,
  userPromptSignal,
} from '../core/messages';
import type { AnsweredQuestion } from '../core/tool-questions';
import { ASKING, QUESTION_GOALS, questionsScript } from './fixtures/tool-questions';
import { TRAIN_TOOLS_QUEUE } from '../tools/native/trains/task-queue';
import { searchJourneys, startTrainService } from '../demo/train-service';
import { createToolWorker } from '../worker/create-worker';
import { delegationGoalsDir, delegationScript } from './fixtures/delegation';
import { calculator, runCodeScript } from './fixtures/run-code';
import { madeToolScript, SAMPLE_TEXT } from './fixtures/made-tools';
import { trainsScript } from './fixtures/goal-scripts-sports-trains';
import { FX_STDIO, mcpScript, pickerScript, ptoScript } from './fixtures/scripts';
import { loadScript, type ScriptInput } from '../activities/llm/scripted-model';
import { openBlobStore, readBlobSettings } from '../blobs';
import { makePdf } from './helpers/reader-fixtures';
import { decide, say, startConversation, waitForUser, waitUntil } from './helpers/conversation';
import { startTemporal, startWorker, testSettings } from '../testkit/temporal';
import { recordLocalTools } from './record-local-tools';
import { recordModelFaults } from './record-model-faults';
import { recordHooks } from './record-hooks';
import { recordBuildMovesForward, recordUpgradeOnNewBuild } from './record-upgrade';
import { recordA2aDelegate } from './record-a2a';
import { recordScheduledRun, recordTriggeredRun } from './record-schedules';
import { recordMemory } from './record-memory';
import { recordSteering } from './record-steering';
import { recordPlanContexts } from './record-plan-contexts';
import { week } from '../testkit/days';

const OUT = path.join(__dirname, 'histories');
/** Existing recordings are kept (they pin what older code wrote) unless --force is given. */
const FORCE = process.argv.includes('--force');
const wanted = (name: string) => FORCE || !existsSync(path.join(OUT, `${name}.json`));
/** The days the conversations book, counted from the day of recording: Monday to Thursday four weeks on, the week
 * after, and a match-day Saturday eight weeks on. */
const DAY = {
  mon: week(4, 0),
  tue: week(4, 1),
  thu: week(4, 3),
  nextMon: week(5, 0),
  nextTue: week(5, 1),
  saturday: week(8, 5),
};

async function main(): Promise<void> {
  const env = await startTemporal();
  const save = async (name: string, handle: WorkflowHandle, runId?: string) => {
    const h = runId ? env.client.workflow.getHandle(handle.workflowId, runId) : handle;
    writeFileSync(path.join(OUT, `${name}.json`), historyToJSON(await h.fetchHistory()));
    console.log(`recorded ${name}`);
  };
  try {
    const pto = await startWorker(env, { script: ptoScript, settings: testSettings() });
    const taskQueue = pto.worker.options.taskQueue;
    if (wanted('pto-approvals-and-errors')) {
      const { handle } = await startConversation(env.client, taskQueue, { goalId: 'goal_hr_pto' }, 'replay-pto');
      await say(handle, 'What is my balance for ada@example.com?');
      await say(handle, 'order me a pizza');
      await say(handle, `book ${DAY.mon} to ${DAY.tue} for ada@example.com`);
      await decide(handle, { approve: false, reason: 'wrong week' });
      await say(handle, `book ${DAY.nextMon} to ${DAY.nextTue} for ada@example.com`);
      await decide(handle, {
        approve: true,
        args: { email: 'ada@example.com', startDate: DAY.nextMon, endDate: DAY.nextMon },
      });
      await say(handle, 'book some days');
      await say(handle, `plan ${DAY.mon} to ${DAY.thu} for grace@example.com`);
      await say(handle, 'What is my balance for nobody@example.com?');
      await say(handle, 'that is all');
      await handle.result();
      await save('pto-approvals-and-errors', handle);
    }
    if (wanted('continue-as-new-first-run')) {
      const { handle } = await startConversation(
        env.client,
        taskQueue,
        { goalId: 'goal_hr_pto', historyEventBudget: 20 },
        'replay-continue-as-new',
      );
      const firstRun = (await handle.describe()).runId;
      for (const p of [
        'balance for ada@example.com',
        'balance for grace@example.com',
        'balance for nobody@example.com',
      ]) {
        await handle.signal(userPromptSignal, p);
      }
      await new Promise((r) => setTimeout(r, 3000));
      await waitForUser(handle);
      await handle.signal(endChatSignal);
      await handle.result();
      await save('continue-as-new-first-run', handle, firstRun);
      await save('continue-as-new-last-run', env.client.workflow.getHandle(handle.workflowId));
    }
    if (wanted('one-model-wait')) {
      // Prompts checked while their turn is planned (PATCHES.oneModelWait): a fitting one with a tool, a refused
      // one, a booking approved.
      const { handle } = await startConversation(
        env.client,
        taskQueue,
        { goalId: 'goal_hr_pto' },
        'replay-one-model-wait',
      );
      await say(handle, 'What is my balance for ada@example.com?');
      await say(handle, 'order me a pizza');
      await say(handle, `book ${DAY.mon} to ${DAY.tue} for ada@example.com`);
      await decide(handle, { approve: true });
      await handle.signal(endChatSignal);
      await handle.result();
      await save('one-model-wait', handle);
    }
    if (wanted('describe-questions')) {
      // The task queue's describe workflow answering agents, endpoints, a goal's tools and an unknown goal.
      const asker = new AgentClient(env.client, taskQueue);
      await asker.agents();
      await asker.catalog();
      await asker.catalog('goal_hr_pto');
      await asker.catalog('goal_nope').catch(() => undefined);
      const handle = env.client.workflow.getHandle(describeWorkflowId(taskQueue));
      await handle.terminate('recorded');
      await save('describe-questions', handle);
    }
    await pto.stop();

    if (wanted('cancel-and-expiry')) {
      // A cancelled approval, an approval that expired (APPROVAL_TIMEOUT), and the end by IDLE_TIMEOUT: real timers.
      const expiring = await startWorker(env, {
        script: ptoScript,
        settings: testSettings({ APPROVAL_TIMEOUT: '3s', IDLE_TIMEOUT: '5s' }),
      });
      const { handle } = await startConversation(
        env.client,
        expiring.worker.options.taskQueue,
        { goalId: 'goal_hr_pto' },
        'replay-cancel-expiry',
      );
      await say(handle, `book ${DAY.mon} to ${DAY.tue} for ada@example.com`);
      await handle.executeUpdate(cancelTurnUpdate);
      await say(handle, `book ${DAY.nextMon} to ${DAY.nextTue} for ada@example.com`);
      await handle.result();
      await save('cancel-and-expiry', handle);
      await expiring.stop();
    }

    if (wanted('searchable-conversation')) {
      // Search attributes (goal, state, owner) and the memo title, upserted as the conversation goes.
      const searchable = await startWorker(env, { script: ptoScript, settings: testSettings() });
      const { handle } = await startConversation(
        env.client,
        searchable.worker.options.taskQueue,
        { goalId: 'goal_hr_pto', owner: 'ada' },
        'replay-searchable',
      );
      await say(handle, 'What is my balance for ada@example.com?');
      await say(handle, `book ${DAY.mon} to ${DAY.tue} for ada@example.com`);
      await decide(handle, { approve: true });
      await handle.signal(endChatSignal);
      await handle.result();
      await save('searchable-conversation', handle);
      await searchable.stop();
    }

    if (wanted('cancel-running-mcp-call')) {
      // The user cancels while an MCP tool runs: the activity is cancelled and its outcome recorded.
      const registry = path.join(mkdtempSync(path.join(tmpdir(), 'record-cancel-')), 'mcp_endpoints.json');
      writeFileSync(
        registry,
        JSON.stringify({
          mcpServers: {
            chaos: {
              command: process.execPath,
              args: ['--require', 'tsx/cjs', 'test/fixtures/mcp/chaos-server.ts'],
              timeoutMs: 60_000,
            },
          },
        }),
      );
      const script = {
        rules: [
          ...mcpScript.rules,
          { user: 'wait', reply: { toolCalls: [{ tool: 'chaos__wait_for_cancel', args: {} }] } },
        ],
      };
      const settings = testSettings({
        AGENT_GOAL: 'goal_general',
        MCP_ENDPOINTS_FILE: registry,
        SHOW_CONFIRM: 'false',
      });
      const general = await startWorker(env, { script, settings });
      const { handle } = await startConversation(
        env.client,
        settings.taskQueue,
        { goalId: 'goal_general' },
        'replay-cancel-mcp',
      );
      void handle.signal(userPromptSignal, 'wait for me');
      await waitUntil(
        async () =>
          (await handle.describe()).raw.pendingActivities?.some(
            (a) => a.activityType?.name === 'callMcpTool' && a.state === 2,
          ) ?? false,
      );
      await handle.executeUpdate(cancelTurnUpdate);
      await handle.signal(endChatSignal);
      await handle.result();
      await save('cancel-running-mcp-call', handle);
      await general.stop();
    }

    const picker = await startWorker(env, {
      script: pickerScript,
      settings: testSettings({ AGENT_GOAL: 'goal_choose_agent' }),
    });
    if (wanted('multi-goal-switching')) {
      const { handle } = await startConversation(
        env.client,
        picker.worker.options.taskQueue,
        { goalId: 'goal_choose_agent' },
        'replay-multi-goal',
      );
      await say(handle, 'I need PTO help');
      await say(handle, 'what other agents are there?');
      await say(handle, 'done');
      await say(handle, 'astrology please');
      await handle.signal(changeGoalSignal, 'goal_order_status');
      await new Promise((r) => setTimeout(r, 1000));
      await waitForUser(handle);
      await handle.signal(endChatSignal);
      await handle.result();
      await save('multi-goal-switching', handle);
    }
    await picker.stop();

    if (wanted('mcp-endpoint-added-mid-conversation')) {
      const registry = path.join(mkdtempSync(path.join(tmpdir(), 'record-mcp-')), 'mcp_endpoints.json');
      writeFileSync(registry, '{"mcpServers":{}}');
      const settings = testSettings({ AGENT_GOAL: 'goal_general', MCP_ENDPOINTS_FILE: registry });
      const general = await startWorker(env, { script: mcpScript, settings });
      const { handle } = await startConversation(
        env.client,
        settings.taskQueue,
        { goalId: 'goal_general' },
        'replay-mcp',
      );
      await say(handle, 'convert 100 USD to EUR');
      writeFileSync(registry, JSON.stringify({ mcpServers: { fx: FX_STDIO } }));
      await say(handle, 'convert 100 USD to EUR');
      await say(handle, 'trade 50 USD to GBP');
      await decide(handle, { approve: true });
      writeFileSync(registry, JSON.stringify({ mcpServers: { fx: { ...FX_STDIO, enabled: false } } }));
      await say(handle, 'convert 5 USD to JPY');
      await handle.signal(endChatSignal);
      await handle.result();
      await save('mcp-endpoint-added-mid-conversation', handle);
      await general.stop();
    }

    if (wanted('multi-goal-list-agents-and-direct-switch')) {
      // Newer multi-goal behaviour: ListAgents from an agent returns to the picker; agents switch directly.
      const picker2 = await startWorker(env, {
        script: pickerScript,
        settings: testSettings({ AGENT_GOAL: 'goal_choose_agent' }),
      });
      const { handle } = await startConversation(
        env.client,
        picker2.worker.options.taskQueue,
        { goalId: 'goal_choose_agent' },
        'replay-multi-goal-2',
      );
      await say(handle, 'I need PTO help');
      await say(handle, 'what other agents are there?');
      await say(handle, 'PTO again please');
      await say(handle, 'actually, where is my order ORD-1001?');
      await handle.signal(endChatSignal);
      await handle.result();
      await save('multi-goal-list-agents-and-direct-switch', handle);
      await picker2.stop();
    }

    if (wanted('tools-on-another-task-queue')) {
      // Train tools run on the train-tools queue, served by their own worker and HTTP service.
      const trains = await startTrainService({ port: 0 });
      const services = testSettings({ TRAIN_SERVICE_URL: trains.url }).toolServices;
      const toolWorker = await createToolWorker({
        connection: env.nativeConnection,
        namespace: env.namespace ?? 'default',
        taskQueue: TRAIN_TOOLS_QUEUE,
        services,
      });
      const toolsRunning = toolWorker.worker.run();
      const agent = await startWorker(env, {
        script: trainsScript,
        settings: testSettings({ AGENT_GOAL: 'goal_match_train_invoice' }),
      });
      const { handle } = await startConversation(
        env.client,
        agent.worker.options.taskQueue,
        { goalId: 'goal_match_train_invoice' },
        'replay-trains',
      );
      await say(handle, `trains from London to Liverpool on ${DAY.saturday} by 16:00 and back after 20:00`);
      await handle.signal(endChatSignal);
      await handle.result();
      await save('tools-on-another-task-queue', handle);
      await agent.stop();
      toolWorker.worker.shutdown();
      await toolsRunning;
      await trains.close();
    }

    if (wanted('delegation') || wanted('delegation-child')) {
      // A boss agent delegating: two delegates of one step side by side, a delegate's approval answered through the
      // parent (confirm going down), a delegate's question answered there (a prompt going down). Child workflows,
      // signals both ways, the 'delegation' patch; the booking delegate's own history is the task-mode side.
      const settings = testSettings({ AGENT_GOAL: 'goal_boss', GOALS_DIR: delegationGoalsDir() });
      const boss = await startWorker(env, { script: delegationScript, settings });
      const { handle } = await startConversation(
        env.client,
        settings.taskQueue,
        { goalId: 'goal_boss' },
        'replay-delegation',
      );
      await say(handle, 'both ada@example.com ORD-1001');
      await say(handle, `book ${DAY.mon} to ${DAY.tue} for ada@example.com`);
      await decide(handle, { approve: true });
      await say(handle, 'ask me');
      await say(handle, 'ada@example.com');
      const booking = (await handle.query(delegationsQuery)).find((d) => d.task.startsWith('book '))!;
      await handle.signal(endChatSignal);
      await handle.result();
      await save('delegation', handle);
      await save('delegation-child', env.client.workflow.getHandle(booking.childId));
      await boss.stop();
    }

    if (wanted('create-agent')) {
      // CreateAgent from the picker with the shipped demo script: the draft checked, approved, the goal written to a
      // goals folder of its own, then switched to and used (the 'create-agent' patch, both activities).
      const registry = path.join(mkdtempSync(path.join(tmpdir(), 'replay-mcp-')), 'mcp_endpoints.json');
      writeFileSync(registry, JSON.stringify({ mcpServers: { fx: FX_STDIO } }));
      const settings = testSettings({
        AGENT_GOAL: 'goal_choose_agent',
        VALIDATE_PROMPTS: 'false',
        MCP_ENDPOINTS_FILE: registry,
        GOALS_DIR: mkdtempSync(path.join(tmpdir(), 'replay-goals-')),
      });
      const builder = await startWorker(env, {
        script: loadScript(path.join(__dirname, '..', 'config', 'scripted-model.json')),
        settings,
      });
      const { handle } = await startConversation(
        env.client,
        settings.taskQueue,
        { goalId: 'goal_choose_agent' },
        'create-agent.json',
      );
      await say(handle, 'I need a new agent');
      await say(handle, 'I need an agent that converts currency and checks account balances');
      await decide(handle, { approve: true });
      await say(handle, 'switch to goal_fx_balances');
      await say(handle, 'balance for 11235');
      await handle.signal(endChatSignal);
      await handle.result();
      await save('create-agent', handle);
      await builder.stop();
    }

    if (wanted('search-tools')) {
      // goal_general over the 504-tool toolbox server: SearchTools (a local activity: a marker), then the tool found.
      const registry = path.join(mkdtempSync(path.join(tmpdir(), 'replay-toolbox-')), 'mcp_endpoints.json');
      writeFileSync(
        registry,
        JSON.stringify({
          mcpServers: {
            toolbox: {
              command: process.execPath,
              args: ['--require', 'tsx/cjs', 'testkit/toolbox-server.ts'],
              timeoutMs: 20_000,
            },
          },
        }),
      );
      const script = {
        rules: [
          { user: '^Greet the user', reply: { text: 'Hello.' } },
          { user: 'schedule (.+)', reply: { toolCalls: [{ tool: 'SearchTools', args: { query: 'schedule {{1}}' } }] } },
          {
            afterTool: 'SearchTools',
            outcome: 'ok' as const,
            reply: {
              toolCalls: [
                { tool: 'toolbox__calendar_create_event', args: { title: 'Design sync', details: 'Tuesday' } },
              ],
            },
          },
          { afterTool: 'toolbox__calendar_create_event', reply: { text: 'Scheduled.' } },
        ],
      };
      const settings = testSettings({
        AGENT_GOAL: 'goal_general',
        VALIDATE_PROMPTS: 'false',
        SHOW_CONFIRM: 'false',
        MCP_ENDPOINTS_FILE: registry,
      });
      const general = await startWorker(env, { script, settings });
      const { handle } = await startConversation(
        env.client,
        settings.taskQueue,
        { goalId: 'goal_general' },
        'search-tools.json',
      );
      await say(handle, 'schedule a meeting with the design team');
      await handle.signal(endChatSignal);
      await handle.result();
      await save('search-tools', handle);
      await general.stop();
    }
    if (wanted('budget-stop')) {
      // CONVERSATION_TOKEN_BUDGET reached by the greeting (the 'budgets' patch): the next prompt ends the
      // conversation without a model call.
      const settings = testSettings({ CONVERSATION_TOKEN_BUDGET: '1' });
      const thrifty = await startWorker(env, { script: ptoScript, settings });
      const { handle } = await startConversation(
        env.client,
        settings.taskQueue,
        { goalId: 'goal_hr_pto' },
        'replay-budget-stop',
      );
      await say(handle, 'What is my balance for ada@example.com?');
      await handle.result();
      await save('budget-stop', handle);
      await thrifty.stop();
    }
    if (wanted('run-code')) {
      // RunCode (the 'run-code' patch): a script computed in the sandbox, then one the sandbox stops.
      const goals = mkdtempSync(path.join(tmpdir(), 'replay-run-code-'));
      writeFileSync(path.join(goals, 'calculator.json'), JSON.stringify(calculator));
      const settings = testSettings({ AGENT_GOAL: 'goal_calculator', VALIDATE_PROMPTS: 'false', GOALS_DIR: goals });
      const coder = await startWorker(env, { script: runCodeScript, settings });
      const { handle } = await startConversation(
        env.client,
        settings.taskQueue,
        { goalId: 'goal_calculator' },
        'replay-run-code',
      );
      await say(handle, 'count the links in: https://a.com/x https://b.org');
      await say(handle, 'loop');
      await handle.signal(endChatSignal);
      await handle.result();
      await save('run-code', handle);
      await coder.stop();
    }
    if (wanted('create-tool')) {
      // CreateTool (the 'create-tool' patch): a draft checked, approved, written and called (runMadeTool), then an
      // agent made with it; and that agent's own conversation calling it.
      const dir = mkdtempSync(path.join(tmpdir(), 'replay-create-tool-'));
      const settings = testSettings({
        AGENT_GOAL: 'goal_agent_builder',
        VALIDATE_PROMPTS: 'false',
        TOOLS_DIR: path.join(dir, 'tools'),
        GOALS_DIR: path.join(dir, 'goals'),
      });
      const maker = await startWorker(env, { script: madeToolScript, settings });
      const { handle } = await startConversation(
        env.client,
        settings.taskQueue,
        { goalId: 'goal_agent_builder' },
        'replay-create-tool',
      );
      await say(handle, 'I need to extract the URLs from texts and count the domains');
      await decide(handle, { approve: true });
      await say(handle, 'now make an agent that uses it');
      await decide(handle, { approve: true });
      await handle.signal(endChatSignal);
      await handle.result();
      await save('create-tool', handle);
      const user = await startConversation(
        env.client,
        settings.taskQueue,
        { goalId: 'goal_url_extractor' },
        'replay-made-tool-call',
      );
      await say(user.handle, `what are the links in: ${SAMPLE_TEXT}`);
      await user.handle.signal(endChatSignal);
      await user.handle.result();
      await save('made-tool-call', user.handle);
      await maker.stop();
    }
    if (wanted('http-api-call')) {
      // HTTP API tools (the 'http-apis' patch): the shipped trains API over the demo train service, a GET that runs at
      // once and a POST after approval, each a callHttpTool activity.
      const trains = await startTrainService({ port: 0 });
      const root = path.join(__dirname, '..');
      const shipped = JSON.parse(readFileSync(path.join(root, 'config', 'mcp_endpoints.json'), 'utf8'));
      const registry = path.join(mkdtempSync(path.join(tmpdir(), 'replay-http-api-')), 'mcp.json');
      const entry = { ...shipped.httpApis.trains, baseUrl: trains.url };
      writeFileSync(registry, JSON.stringify({ mcpServers: {}, httpApis: { trains: entry } }));
      const settings = testSettings({
        AGENT_GOAL: 'goal_trains_http',
        VALIDATE_PROMPTS: 'false',
        MCP_ENDPOINTS_FILE: registry,
      });
      const script = loadScript(path.join(root, 'config', 'scripted-model.json'));
      const caller = await startWorker(env, { script, settings });
      const { handle } = await startConversation(
        env.client,
        settings.taskQueue,
        { goalId: 'goal_trains_http' },
        'replay-http-api-call',
      );
      const query = { from: 'London', to: 'Liverpool', date: DAY.saturday, arriveBy: '16:00' };
      await say(handle, `trains from London to Liverpool on ${DAY.saturday} by 16:00`);
      const journey = searchJourneys(new URLSearchParams(query)).journeys[0]!;
      await say(handle, `book ${journey.id} for ada@example.com`);
      await decide(handle, { approve: true });
      await handle.signal(endChatSignal);
      await handle.result();
      await save('http-api-call', handle);
      await caller.stop();
      await trains.close();
    }
    if (wanted('tool-questions')) {
      // An MCP server asking during its calls (toolQuestion updates from the activity, each with its timer): a form
      // answered, a sampling request approved, and a form nobody answered within TOOL_QUESTION_TIMEOUT.
      const dir = mkdtempSync(path.join(tmpdir(), 'replay-tool-questions-'));
      const registry = path.join(dir, 'mcp.json');
      writeFileSync(registry, JSON.stringify({ mcpServers: { asking: ASKING(path.join(dir, 'asking.log')) } }));
      const settings = testSettings({
        AGENT_GOAL: 'goal_general',
        VALIDATE_PROMPTS: 'false',
        MCP_ENDPOINTS_FILE: registry,
        TOOL_QUESTION_TIMEOUT: '2s',
      });
      const asking = await startWorker(env, { script: questionsScript, settings });
      const { handle } = await startConversation(
        env.client,
        settings.taskQueue,
        { goalId: 'goal_general' },
        'replay-tool-questions',
      );
      const answer = (answered: AnsweredQuestion) => handle.executeUpdate(answerQuestionUpdate, { args: [answered] });
      await say(handle, 'greet me');
      await answer({ answer: { action: 'accept', content: { name: 'Ada' } } });
      await say(handle, 'poem about rain');
      await answer({ answer: { action: 'accept' } });
      const unanswered = await say(handle, 'greet me');
      await waitUntil(async () => (await handle.query(statusQuery)).lastReply?.reply !== unanswered.reply);
      await handle.signal(endChatSignal);
      await handle.result();
      await save('tool-questions', handle);
      await asking.stop();
    }
    if (wanted('tool-question-delegation')) {
      // A delegate's tool asks: the question goes up to the parent (delegateReport from the update handler), the
      // user's answer down to the delegate (answerToolQuestion signal).
      const dir = mkdtempSync(path.join(tmpdir(), 'replay-tool-question-delegation-'));
      const registry = path.join(dir, 'mcp.json');
      writeFileSync(registry, JSON.stringify({ mcpServers: { asking: ASKING(path.join(dir, 'asking.log')) } }));
      const goals = path.join(dir, 'goals');
      mkdirSync(goals);
      for (const goal of QUESTION_GOALS) writeFileSync(path.join(goals, `${goal.id}.json`), JSON.stringify(goal));
      const settings = testSettings({
        AGENT_GOAL: 'goal_question_boss',
        GOALS_DIR: goals,
        VALIDATE_PROMPTS: 'false',
        MCP_ENDPOINTS_FILE: registry,
      });
      const boss = await startWorker(env, { script: questionsScript, settings });
      const { handle } = await startConversation(
        env.client,
        settings.taskQueue,
        { goalId: 'goal_question_boss' },
        'replay-tool-question-delegation',
      );
      await say(handle, 'have me greeted');
      await handle.executeUpdate(answerQuestionUpdate, {
        args: [{ answer: { action: 'accept', content: { name: 'Ada' } } }],
      });
      const [greeter] = await handle.query(delegationsQuery);
      await handle.signal(endChatSignal);
      await handle.result();
      await save('tool-question-delegation', handle);
      await save('tool-question-delegation-child', env.client.workflow.getHandle(greeter!.childId));
      await boss.stop();
    }
    if (wanted('read-file')) {
      // ReadFile (the 'files' patch): a prompt with a PDF attached, page 7 read; an id the conversation was never given.
      const blobDir = mkdtempSync(path.join(tmpdir(), 'replay-read-file-'));
      const settings = testSettings({ AGENT_GOAL: 'goal_general', BLOB_DIR: blobDir, VALIDATE_PROMPTS: 'false' });
      const reader = await startWorker(env, { script: readFileScript, settings });
      const store = openBlobStore(readBlobSettings({ BLOB_DIR: blobDir }, blobDir));
      const { handle } = await startConversation(
        env.client,
        settings.taskQueue,
        { goalId: 'goal_general' },
        'replay-read-file',
      );
      const pdf = await store.put(await makePdf(), {
        name: 'report.pdf',
        owner: 'local',
        conversationId: handle.workflowId,
      });
      await say(handle, { text: 'what does page 7 say?', attachments: [pdf] });
      await say(handle, `page 7 of id ${'a'.repeat(64)}`);
      await handle.signal(endChatSignal);
      await handle.result();
      await save('read-file', handle);
      await reader.stop();
    }
    await recordModelFaults(env, save, wanted);
    await recordLocalTools(env, save, wanted);
    await recordHooks(env, save, wanted);
    await recordUpgradeOnNewBuild(env, save, wanted);
    await recordBuildMovesForward(env, save, wanted);
    await recordA2aDelegate(env, save, wanted);
    await recordScheduledRun(env, save, wanted);
    await recordTriggeredRun(env, save, wanted);
    await recordMemory(env, save, wanted);
    await recordSteering(env, save, wanted);
    await recordPlanContexts(env, save, wanted);
  } finally {
    await env.teardown();
  }
}

/** Reads page 7 of the file whose id the user's message carries (an attachment's line names it). */
const readFileScript: ScriptInput = {
  rules: [
    { user: '^Greet', reply: { text: 'Hi.' } },
    {
      user: 'page 7[\\s\\S]*id ([0-9a-f]{64})',
      reply: { toolCalls: [{ tool: 'ReadFile', args: { id: '{{1}}', pages: { from: 7, to: 7 } } }] },
    },
    { afterTool: 'ReadFile', outcome: 'ok', reply: { text: '{{result.text}}' } },
    { afterTool: 'ReadFile', outcome: 'tool_error', reply: { text: 'Could not read: {{outcome.error}}' } },
  ],
};

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
