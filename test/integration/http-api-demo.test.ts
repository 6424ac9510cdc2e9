// The offline demo of HTTP APIs as tools: the project's own train service, registered in the shipped registry
// (config/mcp_endpoints.json, `httpApis.trains`) by its OpenAPI document (config/openapi/trains.json), and the JSON
// goal goal_trains_http, whose agent searches and books trains with the `trains__<operationId>` tools the document
// makes, driven by the shipped scripted model. Also: the document describes what the service really answers.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import Ajv from 'ajv';
import { loadScript } from '../../activities/llm/scripted-model';
import { parseDocument } from '../../endpoints/http/api-document';
import { operationsOf } from '../../endpoints/http/operations';
import { searchJourneys, startTrainService, type TrainService } from '../../demo/train-service';
import { decide, history, say, startConversation, toolOutcomes } from '../helpers/conversation';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { week } from '../../testkit/days';

const ROOT = path.join(__dirname, '..', '..');
const DEMO_SCRIPT = path.join(ROOT, 'config', 'scripted-model.json');
const REGISTRY = path.join(ROOT, 'config', 'mcp_endpoints.json');
const DOCUMENT = path.join(ROOT, 'config', 'openapi', 'trains.json');
const GOAL = 'goal_trains_http';

type Json = Record<string, unknown>;

describe('goal_trains_http: the train service as an HTTP API, from its OpenAPI document', () => {
  let env: TestWorkflowEnvironment;
  let trains: TrainService;
  let worker: Awaited<ReturnType<typeof startWorker>>;

  beforeAll(async () => {
    [env, trains] = await Promise.all([startTemporal(), startTrainService({ port: 0 })]);
    // The shipped entry as it is, but for where the service listens; no MCP servers (the demo ones would start).
    const shipped = JSON.parse(readFileSync(REGISTRY, 'utf8')) as { httpApis: { trains: Json } };
    const registry = path.join(mkdtempSync(path.join(tmpdir(), 'http-api-demo-')), 'mcp.json');
    writeFileSync(
      registry,
      JSON.stringify({ mcpServers: {}, httpApis: { trains: { ...shipped.httpApis.trains, baseUrl: trains.url } } }),
    );
    worker = await startWorker(env, {
      script: loadScript(DEMO_SCRIPT),
      settings: testSettings({ AGENT_GOAL: GOAL, VALIDATE_PROMPTS: 'false', MCP_ENDPOINTS_FILE: registry }),
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await env?.teardown();
    await trains?.close();
  });

  it('ships the entry pointing at the service on 127.0.0.1:3802', () => {
    const shipped = JSON.parse(readFileSync(REGISTRY, 'utf8')) as { httpApis: Record<string, Json> };
    expect(shipped.httpApis.trains).toMatchObject({
      openapi: 'config/openapi/trains.json',
      baseUrl: 'http://127.0.0.1:3802',
      categories: ['travel'],
    });
  });

  it('searches trains with trains__searchJourneys and books one with trains__createBooking, after approval', async () => {
    const { handle, greeting } = await startConversation(env.client, worker.worker.options.taskQueue, {
      goalId: GOAL,
    });
    expect(greeting?.reply).toMatch(/^Hi! I search and book UK trains through the train service's HTTP API/);

    // As the greeting suggests: "next Saturday", the day the worker's clock makes of it.
    const saturday = week(1, 5);
    const searched = await say(handle, 'trains from London to Liverpool on next Saturday by 16:00');
    const expected = searchJourneys(
      new URLSearchParams({ from: 'London', to: 'Liverpool', date: saturday, arriveBy: '16:00' }),
    );
    const first = expected.journeys[0]!;
    expect(expected.journeys.length).toBeGreaterThan(0);
    const [search] = toolOutcomes(await history(handle), 'trains__searchJourneys');
    expect(search?.call.args).toEqual({ from: 'London', to: 'Liverpool', date: saturday, arriveBy: '16:00' });
    expect(search?.outcome).toMatchObject({ status: 'ok', result: { status: 200, body: expected } });
    expect(searched.reply).toBe(
      `Trains from London Euston to Liverpool Lime Street on ${saturday}, leaving at ` +
        `${expected.journeys.map((j) => j.departs).join(', ')}. The first: ${first.id}, ${first.departs} to ` +
        `${first.arrives}, ${first.changes} change(s), ${first.price} GBP. To book, say "book ${first.id} for you@example.com".`,
    );

    // A POST asks first, then goes out once, with an Idempotency-Key.
    const proposal = await say(handle, `book ${first.id} for ada@example.com`);
    expect(proposal.pendingToolCall?.call).toMatchObject({
      tool: 'trains__createBooking',
      args: { body: { journeyIds: [first.id], passenger: { email: 'ada@example.com' } } },
    });
    expect(trains.bookings).toHaveLength(0);
    const booked = await decide(handle, { approve: true });
    expect(booked.reply).toBe(`Booked TRN-4001 (confirmed) for ada@example.com: ${first.id}, ${first.price} GBP.`);
    expect(trains.bookings).toEqual([expect.objectContaining({ reference: 'TRN-4001', total: first.price })]);

    expect((await say(handle, 'booking TRN-4001')).reply).toBe(
      `TRN-4001 is confirmed: ${first.id} for ada@example.com, ${first.price} GBP.`,
    );
    // A 404 from the service reaches the model as a tool error in the service's words.
    expect((await say(handle, `trains from London to Atlantis on ${saturday}`)).reply).toMatch(
      /^I could not search trains: HTTP 404 from trains for GET \/journeys: Unknown station "Atlantis"/,
    );
    expect(toolOutcomes(await history(handle)).map((m) => [m.call.tool, m.outcome.status])).toEqual([
      ['trains__searchJourneys', 'ok'],
      ['trains__createBooking', 'ok'],
      ['trains__getBooking', 'ok'],
      ['trains__searchJourneys', 'tool_error'],
    ]);
  }, 60_000);

  it("describes the service's real answers: every operation's 2xx schema validates what it returns", async () => {
    const { doc } = await parseDocument(readFileSync(DOCUMENT, 'utf8'), DOCUMENT);
    const ajv = new Ajv({
      strict: false,
      allErrors: true,
      formats: { date: /^\d{4}-\d{2}-\d{2}$/, 'date-time': (s: string) => !Number.isNaN(Date.parse(s)), email: /@/ },
    });
    // A real journey for the booking; the booking's reference for the look-up.
    const date = week(10);
    const [journey] = searchJourneys(new URLSearchParams({ from: 'MAN', to: 'London', date })).journeys;
    let reference = '';
    const calls: Record<string, { path: () => string; init?: RequestInit; status: number }> = {
      getHealth: { path: () => '/health', status: 200 },
      listStations: { path: () => '/stations', status: 200 },
      searchJourneys: {
        path: () => `/journeys?from=MAN&to=London&date=${date}&departAfter=9:00&limit=3`,
        status: 200,
      },
      listBookings: { path: () => '/bookings', status: 200 },
      createBooking: {
        path: () => '/bookings',
        init: {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ journeyIds: [journey!.id], passenger: { email: 'x@example.com', name: 'X' } }),
        },
        status: 201,
      },
      getBooking: { path: () => `/bookings/${reference}`, status: 200 },
    };
    const operations = operationsOf(doc);
    expect(operations.map((o) => o.id).sort()).toEqual(Object.keys(calls).sort());
    const paths = doc.paths as Record<string, Record<string, Json>>;
    for (const op of operations) {
      const call = calls[op.id]!;
      const res = await fetch(`${trains.url}${call.path()}`, call.init);
      expect([op.id, res.status]).toEqual([op.id, call.status]);
      const responses = paths[op.path]![op.method]!.responses as Record<string, Json>;
      const content = responses[String(res.status)]!.content as Record<string, { schema: Json }>;
      const validate = ajv.compile(content['application/json']!.schema);
      const body = (await res.json()) as { reference?: string };
      if (op.id === 'createBooking') reference = body.reference!;
      expect([op.id, validate(body), validate.errors ?? null]).toEqual([op.id, true, null]);
    }
  });
});
