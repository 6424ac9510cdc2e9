// goal_match_train_invoice end to end, with the train tools owned by "another team": SearchTrains and BookTrains
// declare taskQueue "train-tools", run on a separate tool worker (createToolWorker), and call the project's train
// service over HTTP. A real dev server, the agent worker, the tool worker and the service all run here; the
// history shows which task queue each activity was scheduled on, and the service holds the booking.
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkflowHandle } from '@temporalio/client';
import { loadScript } from '../../activities/llm/scripted-model';
import { addMonths, isoDay } from '../../core/days';
import { invoices } from '../../tools/mock-data/billing';
import { fixtures as seasonFixtures } from '../../tools/mock-data/sports';
import { TRAIN_TOOLS_QUEUE } from '../../tools/native/trains/task-queue';
import { startTrainService, type TrainService } from '../../demo/train-service';
import { createToolWorker } from '../../worker/create-worker';
import { currentGoalQuery, endChatSignal } from '../../core/messages';
import { trainsScript } from '../fixtures/goal-scripts-sports-trains';
import { decide, history, say, startConversation, toolOutcomes, resultOf } from '../helpers/conversation';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { week } from '../../testkit/days';

const DEMO_SCRIPT = path.join(__dirname, '..', '..', 'config', 'scripted-model.json');
const GOAL = 'goal_match_train_invoice';

interface Fixture {
  id: string;
  date: string;
  kickoff: string;
  home: string;
  away: string;
  city: string;
  nearestStation: string;
}
interface Journey {
  id: string;
  departs: string;
  arrives: string;
  price: number;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The month after this one, YYYY-MM: the season always has games then. */
const nextMonth = () => addMonths(isoDay(new Date()).slice(0, 7), 1);

const shift = (hhmm: string, minutes: number) => {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  const t = h * 60 + m + minutes;
  return `${String(Math.floor(t / 60)).padStart(2, '0')}:${String(t % 60).padStart(2, '0')}`;
};

/** Activity type → the task queues its ActivityTaskScheduled events named, from the workflow's real history. */
async function scheduledQueues(handle: WorkflowHandle): Promise<Record<string, string[]>> {
  const queues: Record<string, string[]> = {};
  for (const event of (await handle.fetchHistory()).events ?? []) {
    const a = event.activityTaskScheduledEventAttributes;
    if (a?.activityType?.name && a.taskQueue?.name) (queues[a.activityType.name] ??= []).push(a.taskQueue.name);
  }
  return queues;
}

/** The activity types a workflow ran as local activities (their markers in its history). */
async function localActivities(handle: WorkflowHandle): Promise<string[]> {
  const markers = ((await handle.fetchHistory()).events ?? []).flatMap((e) =>
    e.markerRecordedEventAttributes?.markerName === 'core_local_activity' ? [e.markerRecordedEventAttributes] : [],
  );
  return markers.map((m) => {
    const data = m.details?.['data']?.payloads?.[0]?.data;
    return data ? (JSON.parse(Buffer.from(data).toString('utf8')) as { activity_type: string }).activity_type : '';
  });
}

describe('goal_match_train_invoice: train tools on their own worker and task queue', () => {
  let env: TestWorkflowEnvironment;
  let trains: TrainService;
  let toolWorker: Awaited<ReturnType<typeof createToolWorker>>;
  let toolWorkerRun: Promise<void>;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let demo: Awaited<ReturnType<typeof startWorker>>;

  beforeAll(async () => {
    trains = await startTrainService({ port: 0 });
    env = await startTemporal();
    // The tool worker's settings point at this service; the agent workers' (testSettings) have no Stripe key,
    // so CreateInvoice records mock invoices.
    const services = testSettings({ TRAIN_SERVICE_URL: trains.url }).toolServices;
    toolWorker = await createToolWorker({
      connection: env.nativeConnection,
      namespace: env.namespace ?? 'default',
      taskQueue: TRAIN_TOOLS_QUEUE,
      services,
    });
    toolWorkerRun = toolWorker.worker.run();
    worker = await startWorker(env, { script: trainsScript });
    demo = await startWorker(env, {
      script: loadScript(DEMO_SCRIPT),
      settings: testSettings({ AGENT_GOAL: 'goal_choose_agent' }),
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await demo?.stop();
    if (toolWorker?.worker.getState() === 'RUNNING') toolWorker.worker.shutdown();
    await toolWorkerRun;
    await env?.teardown();
    await trains?.close();
  });

  it('the tool worker serves only the tools routed to its queue', () => {
    expect(toolWorker.tools.names()).toEqual(['BookTrains', 'SearchTrains']);
    expect(worker.tools.spec('SearchTrains')?.taskQueue).toBe('train-tools');
    expect(worker.tools.spec('SearchFixtures')?.taskQueue).toBeUndefined();
  });

  it("finds a fixture, searches and books the trains on the train team's worker, then invoices the booking", async () => {
    const { handle, greeting } = await startConversation(env.client, worker.worker.options.taskQueue, { goalId: GOAL });
    expect(greeting?.reply).toBe('Match day trains here. Which team?');

    const month = nextMonth();
    const fixturesReply = await say(handle, `fixtures for Liverpool in ${month}`);
    const { fixtures } = resultOf<{ fixtures: Fixture[] }>(await history(handle), 'SearchFixtures');
    expect(fixtures.length).toBeGreaterThanOrEqual(4);
    for (const f of fixtures) {
      expect(f.date.startsWith(month)).toBe(true);
      expect([f.home, f.away]).toContain('Liverpool');
    }
    expect(fixturesReply.reply).toBe(`${fixtures.length} fixtures: ${fixtures.map((f) => f.id).join(', ')}`);

    // An afternoon match outside London: trains there before kickoff, back after the final whistle.
    const match = fixtures.find((f) => f.city !== 'London' && f.kickoff <= '17:30')!;
    const arriveBy = shift(match.kickoff, -90);
    const returnAfter = shift(match.kickoff, 150);
    await say(
      handle,
      `trains from London to ${match.nearestStation} on ${match.date} by ${arriveBy} and back after ${returnAfter}`,
    );
    const found = resultOf<{ outbound: Journey[]; return: Journey[]; currency: string }>(
      await history(handle),
      'SearchTrains',
    );
    expect(found.currency).toBe('GBP');
    expect(found.outbound.length).toBeGreaterThan(0);
    expect(found.return.length).toBeGreaterThan(0);
    for (const j of found.outbound) expect(j.arrives <= arriveBy).toBe(true);
    for (const j of found.return) expect(j.departs >= returnAfter).toBe(true);

    // Booking buys tickets: it waits for approval, then runs on the tool worker against the train service.
    const out = found.outbound.at(-1)!;
    const back = found.return[0]!;
    const proposal = await say(handle, `book ${out.id} and ${back.id} for ada@example.com`);
    expect(proposal.pendingToolCall?.call).toMatchObject({
      tool: 'BookTrains',
      args: { journeyIds: [out.id, back.id], email: 'ada@example.com' },
    });
    expect(trains.bookings).toHaveLength(0);

    const total = Math.round((out.price + back.price) * 100) / 100;
    const booked = await decide(handle, { approve: true });
    expect(booked.reply).toBe(`Booked TRN-4001 for ${total} GBP.`);
    expect(trains.bookings).toEqual([
      expect.objectContaining({
        reference: 'TRN-4001',
        status: 'confirmed',
        total,
        passenger: { email: 'ada@example.com' },
        journeys: [expect.objectContaining({ id: out.id }), expect.objectContaining({ id: back.id })],
      }),
    ]);
    // Then the invoice for the booking, which asks too.
    expect(booked.pendingToolCall?.call).toMatchObject({
      tool: 'CreateInvoice',
      args: {
        email: 'ada@example.com',
        currency: 'GBP',
        items: [{ description: 'Train tickets TRN-4001', amount: total, quantity: 1 }],
      },
    });
    expect((await decide(handle, { approve: true })).reply).toBe(`Invoice INV-1001: ${total} GBP.`);
    expect(invoices(worker.store)).toEqual([
      expect.objectContaining({ id: 'INV-1001', email: 'ada@example.com', currency: 'GBP', total }),
    ]);

    expect(toolOutcomes(await history(handle)).map((m) => [m.call.tool, m.outcome.status])).toEqual([
      ['SearchFixtures', 'ok'],
      ['SearchTrains', 'ok'],
      ['BookTrains', 'ok'],
      ['CreateInvoice', 'ok'],
    ]);
    expect((await say(handle, "that's all")).ended).toBe(true);

    // Where each tool ran: the train tools as activities on the train team's queue, the others on the agent's own
    // worker, inside the workflow task that asked for them (local activities, recorded as markers).
    const queues = await scheduledQueues(handle);
    expect(queues.SearchTrains).toEqual(['train-tools']);
    expect(queues.BookTrains).toEqual(['train-tools']);
    expect(queues.SearchFixtures).toBeUndefined();
    expect(queues.CreateInvoice).toBeUndefined();
    expect(await localActivities(handle)).toEqual(expect.arrayContaining(['SearchFixtures', 'CreateInvoice']));
  });

  it("hands the train service's refusal to the LLM as a tool error", async () => {
    const { handle } = await startConversation(env.client, worker.worker.options.taskQueue, { goalId: GOAL });
    // No train leaves at 00:01: the service knows no such journey, whatever the day.
    const journey = `EUS-LIV-${week(7, 5).replace(/-/g, '')}-0001`;
    await say(handle, `book ${journey} for ada@example.com`);
    const reply = await decide(handle, { approve: true });
    expect(reply.reply).toBe(`Booking failed: No journey ${journey}: search again for the times of that day.`);
    expect((await scheduledQueues(handle)).BookTrains).toEqual(['train-tools']);
    await handle.signal(endChatSignal);
  });

  it('offline demo: the picker routes "football … trains" to the goal, which runs its whole sequence', async () => {
    const { handle } = await startConversation(env.client, demo.worker.options.taskQueue, {
      goalId: 'goal_choose_agent',
    });
    const hello = await say(handle, "I'd like to go to a football match by train");
    expect((await handle.query(currentGoalQuery))?.id).toBe(GOAL);
    expect(hello.reply).toMatch(/^You're with the match day trains agent now\. .*"fixtures for Liverpool next month"/);

    // "next month" by the worker's clock; an afternoon home game then, from the demo's season.
    const month = nextMonth();
    const home = seasonFixtures(demo.store).find(
      (f) => f.home === 'Liverpool' && f.date.startsWith(month) && f.kickoff <= '17:30',
    )!;
    expect(home).toBeDefined();
    expect((await say(handle, 'fixtures for Liverpool next month')).reply).toMatch(
      new RegExp(
        `^Liverpool in ${month}: .*Liverpool v ${escape(home.away)}, ${home.date} ${home.kickoff} at Anfield \\(Liverpool\\)`,
      ),
    );
    const day = home.date.replace(/-/g, '');
    const options = await say(handle, `trains from London to Liverpool on ${home.date} by 16:00 and back after 20:00`);
    expect(options.reply).toMatch(
      new RegExp(
        `^Out, London Euston to Liverpool Lime Street on ${home.date}: EUS-LIV-${day}-\\d{4}: .* Back: LIV-EUS-${day}-\\d{4}: `,
      ),
    );
    const { outbound, return: back } = resultOf<{ outbound: Journey[]; return: Journey[] }>(
      await history(handle),
      'SearchTrains',
    );

    const bookings = trains.bookings.length;
    await say(handle, `book ${outbound[0]!.id} and ${back[0]!.id} for grace@example.com`);
    const booked = await decide(handle, { approve: true });
    expect(booked.reply).toMatch(
      new RegExp(`^Booked TRN-\\d+ \\(${home.date} .* London Euston\\) for [\\d.]+ GBP\\. Now the invoice\\.$`),
    );
    expect(booked.pendingToolCall?.call.tool).toBe('CreateInvoice');
    expect((await decide(handle, { approve: true })).reply).toMatch(/^Invoice INV-1001 for [\d.]+ GBP is open, due /);
    expect(trains.bookings).toHaveLength(bookings + 1);
    expect(trains.bookings.at(-1)?.passenger.email).toBe('grace@example.com');
    expect(invoices(demo.store)).toHaveLength(1);
    await handle.signal(endChatSignal);
  });
});
