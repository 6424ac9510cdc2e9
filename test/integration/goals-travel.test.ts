// goal_event_flight_invoice end to end: a real dev server and worker run FindEvents → SearchFlights → CreateInvoice
// (approved), and the invoice lands in the worker's mock store; tool errors and a rejected invoice reach the LLM;
// then the offline demo script (config/scripted-model.json) routes the picker to the goal and runs it, as npm start does.
import { isoDay, resolveDay, resolveMonth } from '../../core/days';
import { invoices } from '../../tools/mock-data/billing';
import { currentGoalQuery, endChatSignal } from '../../core/messages';
import { travelScript } from '../fixtures/goal-scripts-travel';
import { decide, history, say, startConversation, toolOutcomes, resultOf } from '../helpers/conversation';
import { goalTestbed } from '../helpers/goal-testbed';

const GOAL = 'goal_event_flight_invoice';

interface Flight {
  flightNumber: string;
  from: string;
  to: string;
  departs: string;
  price: number;
  total: number;
}

describe('goal_event_flight_invoice on a real Temporal server', () => {
  // Offline: the testbed's settings carry no Stripe key, so CreateInvoice records a mock invoice.
  const { bed } = goalTestbed(travelScript);

  const start = () => startConversation(bed.env.client, bed.worker.worker.options.taskQueue, { goalId: GOAL });
  // March next year: the festivals are yearly, and the flights there are always ahead.
  const year = Number(isoDay(new Date()).slice(0, 4)) + 1;

  it('finds events, searches flights, and invoices the cheapest once the user approves', async () => {
    const { handle, greeting } = await start();
    expect(greeting?.reply).toBe('Events and flights here. Which city and month?');

    expect((await say(handle, `events in Melbourne in ${year}-03`)).reply).toBe(
      `Melbourne in March ${year}: Melbourne Food and Wine Festival (Melbourne, ${year}-03-13 to ${year}-03-22), ` +
        `Melbourne International Comedy Festival (Melbourne, ${year}-03-25 to ${year}-04-19)`,
    );

    // Two passengers: prices are per passenger, sorted, and every offer flies the asked route on the asked day.
    const search = await say(handle, `flights from SFO to MEL on ${year}-03-12 for 2 passengers`);
    const found = resultOf<{ passengers: number; currency: string; flights: Flight[] }>(
      await history(handle),
      'SearchFlights',
    );
    expect(found.passengers).toBe(2);
    expect(found.currency).toBe('USD');
    expect(found.flights.length).toBeGreaterThanOrEqual(3);
    expect(found.flights.map((f) => f.price)).toEqual([...found.flights.map((f) => f.price)].sort((a, b) => a - b));
    for (const f of found.flights)
      expect(f).toMatchObject({
        from: 'SFO',
        to: 'MEL',
        departs: expect.stringMatching(new RegExp(`^${year}-03-12T`)),
        total: f.price * 2,
      });
    expect(search.reply).toBe(`Cheapest first: ${found.flights.map((f) => f.flightNumber).join(', ')}.`);

    // Invoicing asks first (CreateInvoice follows SHOW_CONFIRM), with the cheapest flight's price in the args.
    const proposal = await say(
      handle,
      `invoice the cheapest flight from SFO to MEL on ${year}-03-12 for ada@example.com`,
    );
    const cheapest = resultOf<{ flights: Flight[] }>(await history(handle), 'SearchFlights', 1).flights[0]!;
    expect(proposal.reply).toBe(`Invoicing ${cheapest.flightNumber} to ada@example.com.`);
    expect(proposal.pendingToolCall?.call).toMatchObject({
      tool: 'CreateInvoice',
      args: {
        email: 'ada@example.com',
        currency: 'USD',
        items: [{ description: `Flight ${cheapest.flightNumber} SFO-MEL`, amount: cheapest.price, quantity: 1 }],
      },
    });
    expect(invoices(bed.worker.store)).toHaveLength(0);

    const done = await decide(handle, { approve: true });
    expect(done.reply).toMatch(new RegExp(`^Invoice INV-1001: ${cheapest.price} USD, due \\d{4}-\\d{2}-\\d{2}\\.$`));
    expect(invoices(bed.worker.store)).toEqual([
      expect.objectContaining({
        id: 'INV-1001',
        email: 'ada@example.com',
        currency: 'USD',
        total: cheapest.price,
        status: 'open',
        items: [expect.objectContaining({ amount: cheapest.price, quantity: 1 })],
      }),
    ]);

    const messages = await history(handle);
    expect(toolOutcomes(messages).map((m) => [m.call.tool, m.outcome.status])).toEqual([
      ['FindEvents', 'ok'],
      ['SearchFlights', 'ok'],
      ['SearchFlights', 'ok'],
      ['CreateInvoice', 'ok'],
    ]);
    expect(resultOf<{ source: string }>(messages, 'CreateInvoice').source).toBe('mock');

    const end = await say(handle, "that's all");
    expect(end.ended).toBe(true);
    expect((await handle.result()).endedBy).toBe('goal_complete');
  });

  it('hands tool errors to the LLM, and records no invoice when the user rejects it', async () => {
    const { handle } = await start();
    expect((await say(handle, 'events in Paris in March')).reply).toMatch(
      /^Sorry: I only know events in Australia and New Zealand; "Paris" is not one of: .*Melbourne/,
    );
    expect((await say(handle, `events in Hobart in ${year}-03`)).reply).toMatch(
      new RegExp(`^Hobart in March ${year}: nothing on there that month; elsewhere: .*Adelaide Fringe`),
    );
    expect((await say(handle, `flights from SFO to XYZ on ${year}-03-12`)).reply).toMatch(
      /^No flights: Unknown airport "XYZ"\. Known airports: SYD \(Sydney\)/,
    );
    expect((await say(handle, `flights from SFO to MEL on 12/03/${year}`)).reply).toMatch(
      /^No flights: .*date: a date as YYYY-MM-DD/,
    );

    await say(handle, `invoice the cheapest flight from LAX to AKL on ${year}-03-14 for grace@example.com`);
    expect((await decide(handle, { approve: false, reason: 'too expensive' })).reply).toBe(
      'No invoice then (too expensive).',
    );
    expect(invoices(bed.worker.store)).toHaveLength(0);
    expect(toolOutcomes(await history(handle), 'CreateInvoice')[0]?.outcome).toEqual({
      status: 'rejected',
      reason: 'too expensive',
    });
    await handle.signal(endChatSignal);
  });

  it('offline demo: the picker routes "festival … flights" to the goal, which runs its whole sequence', async () => {
    const { handle } = await startConversation(bed.env.client, bed.demo.worker.options.taskQueue, {
      goalId: 'goal_choose_agent',
    });
    // The picker hands over and the agent acts on the request at once. Days as people say them: the worker's clock
    // makes "March" the next March (this one while it lasts) and "March 12" the next 12 March.
    const today = isoDay(new Date());
    const march = resolveMonth('March', today)!.slice(0, 4);
    const twelfth = resolveDay('March 12', today)!;
    const events = await say(handle, 'I want to go to a festival in Melbourne in March and need flights');
    expect((await handle.query(currentGoalQuery))?.id).toBe(GOAL);
    expect(events.reply).toMatch(
      new RegExp(
        `^In Melbourne, March ${march}: Melbourne Food and Wine Festival \\(Melbourne, ${march}-03-13 to ${march}-03-22\\), ` +
          '.*"flights from SFO to MEL on <YYYY-MM-DD>"',
      ),
    );

    expect((await say(handle, 'flights from SFO to MEL on March 12')).reply).toMatch(
      new RegExp(`^Flights San Francisco to Melbourne on ${twelfth}, cheapest first: \\w\\w \\d+ \\(`),
    );
    const proposal = await say(handle, 'invoice the cheapest flight from SFO to MEL on March 12 for ada@example.com');
    expect(proposal.pendingToolCall?.call.tool).toBe('CreateInvoice');
    expect(proposal.reply).toMatch(/^The cheapest is \w\w \d+ .* I'll invoice it to ada@example\.com\.$/);
    const done = await decide(handle, { approve: true });
    expect(done.reply).toMatch(
      /^Invoice INV-1001 for \d+ USD is open, due \d{4}-\d{2}-\d{2}: https:\/\/invoices\.example\.com\/INV-1001\. Anything else\?/,
    );
    expect(invoices(bed.demo.store)).toHaveLength(1);

    expect(toolOutcomes(await history(handle)).map((m) => [m.call.tool, m.outcome.status])).toEqual([
      ['ListAgents', 'ok'], // the picker's greeting
      ['ChangeGoal', 'ok'],
      ['FindEvents', 'ok'],
      ['SearchFlights', 'ok'],
      ['SearchFlights', 'ok'],
      ['CreateInvoice', 'ok'],
    ]);
    // Completing the goal goes back to the picker (multi-goal mode).
    expect((await say(handle, "that's all")).ended).toBe(false);
    expect((await handle.query(currentGoalQuery))?.id).toBe('goal_choose_agent');
    await handle.signal(endChatSignal);
  });
});
