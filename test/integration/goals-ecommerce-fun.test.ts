// The list-orders and pirate-treasure goals end to end: a real dev server, a real worker, each goal's whole tool
// sequence, and the mock data checked after it; then the offline demo script (config/scripted-model.json)
// routing the picker to them, as `npm start` does.
import { addDays } from '../../core/days';
import { dataset, demoDay } from '../../tools/mock-data';
import { HINTS, treasureHunts } from '../../tools/mock-data/fun';
import { currentGoalQuery, endChatSignal } from '../../core/messages';
import { ecommerceFunGoalsScript } from '../fixtures/goal-scripts-ecommerce-fun';
import { history, say, startConversation, toolOutcomes } from '../helpers/conversation';
import { goalTestbed } from '../helpers/goal-testbed';

describe('list-orders and pirate-treasure goals on a real Temporal server', () => {
  const { bed, start, steps } = goalTestbed(ecommerceFunGoalsScript);

  it('goal_ecomm_list_orders: lists the orders, then details and tracking for each one asked about', async () => {
    const before = structuredClone(dataset(bed.worker.store, 'orders'));
    // The orders and the parcel are dated from the day the store seeded its demo data.
    const day = demoDay(bed.worker.store);
    const { handle, greeting } = await start('goal_ecomm_list_orders');
    expect(greeting?.reply).toBe('List all orders here. Your email?');

    expect((await say(handle, 'ada@example.com')).reply).toBe('Orders: ORD-1002, ORD-1001 (processing, shipped).');
    expect((await say(handle, 'tell me about ORD-1001')).reply).toBe(
      `UPS: In transit in Louisville, KY, due ${addDays(day, 4)}.`,
    );
    expect((await say(handle, 'and ORD-1002?')).reply).toBe('Not shipped yet, nothing to track.');
    expect((await say(handle, 'ORD-9999')).reply).toBe('Sorry: No order ORD-9999.');

    const outcomes = toolOutcomes(await history(handle));
    expect(outcomes.map((m) => [m.call.tool, m.outcome.status])).toEqual([
      ['ListOrders', 'ok'],
      ['GetOrder', 'ok'],
      ['TrackPackage', 'ok'],
      ['GetOrder', 'ok'],
      ['TrackPackage', 'invalid_input'],
      ['GetOrder', 'tool_error'],
    ]);
    expect(outcomes[0]?.outcome).toEqual({
      status: 'ok',
      result: {
        email: 'ada@example.com',
        orders: [
          { id: 'ORD-1002', status: 'processing', placedOn: addDays(day, -1) },
          { id: 'ORD-1001', status: 'shipped', placedOn: addDays(day, -10) },
        ],
      },
    });
    expect(outcomes[2]?.call.args).toEqual({ trackingNumber: '1Z999AA10123456784' });
    expect(outcomes[2]?.outcome).toMatchObject({ status: 'ok', result: { carrier: 'UPS', status: 'In transit' } });
    expect(outcomes[4]?.outcome).toMatchObject({ status: 'invalid_input', missing: ['trackingNumber'] });

    expect((await say(handle, 'that is all')).ended).toBe(true);
    expect(dataset(bed.worker.store, 'orders')).toEqual(before);
  });

  it('goal_pirate_treasure: hints from the map, a wrong guess, then the treasure', async () => {
    const { handle, greeting } = await start('goal_pirate_treasure');
    expect(greeting?.reply).toBe('Ahoy! Hint, or a guess?');

    expect((await say(handle, 'a hint please')).reply).toBe(`Hint 1: ${HINTS[0]}`);
    expect((await say(handle, 'guess 123 Main St, Phoenix, AZ')).reply).toBe(
      "found=false Nothin' but sand at 123 Main St, Phoenix, AZ. Want another hint?",
    );
    expect((await say(handle, 'another hint')).reply).toBe(`Hint 2: ${HINTS[1]}`);
    // Another player's hints are counted apart.
    expect((await say(handle, 'hint for Anne')).reply).toBe(`Hint 1: ${HINTS[0]}`);
    expect((await say(handle, 'guess 300 Lenora Street, Seattle, Washington')).reply).toMatch(
      /^found=true Shiver me timbers! Ye dug at 300 Lenora Street, Seattle/,
    );

    const outcomes = toolOutcomes(await history(handle));
    expect(outcomes.map((m) => [m.call.tool, m.outcome.status])).toEqual([
      ['GiveHint', 'ok'],
      ['GuessTreasureLocation', 'ok'],
      ['GiveHint', 'ok'],
      ['GiveHint', 'ok'],
      ['GuessTreasureLocation', 'ok'],
    ]);
    expect(outcomes[1]?.outcome).toEqual({
      status: 'ok',
      result: {
        treasureFound: false,
        guesses: 1,
        hintsUsed: 1,
        message: "Nothin' but sand at 123 Main St, Phoenix, AZ. Want another hint?",
      },
    });
    expect(outcomes[4]?.outcome).toMatchObject({
      status: 'ok',
      result: { treasureFound: true, guesses: 2, hintsUsed: 2 },
    });

    // Without a pirate name, the conversation is the crew.
    expect(treasureHunts(bed.worker.store)).toEqual({
      [handle.workflowId]: {
        crew: handle.workflowId,
        hintsGiven: 2,
        found: true,
        guesses: [
          { address: '123 Main St', city: 'Phoenix', state: 'AZ' },
          { address: '300 Lenora Street', city: 'Seattle', state: 'Washington' },
        ],
      },
      anne: { crew: 'anne', hintsGiven: 1, found: false, guesses: [] },
    });
    const done = await say(handle, 'bye');
    expect(done.ended).toBe(true);
    expect((await handle.result()).endedBy).toBe('goal_complete');
  });

  it('the offline demo script routes the picker to both agents and runs their tools', async () => {
    const { handle } = await startConversation(bed.env.client, bed.demo.worker.options.taskQueue, {
      goalId: 'goal_choose_agent',
    });
    const goal = async () => (await handle.query(currentGoalQuery))?.id;

    expect((await say(handle, 'show my purchases')).reply).toMatch(/^You're with List all orders/);
    expect(await goal()).toBe('goal_ecomm_list_orders');
    expect((await say(handle, 'ada@example.com')).reply).toMatch(/^Your orders, newest first: ORD-1002, ORD-1001\./);
    expect((await say(handle, 'ORD-1001')).reply).toMatch(/^UPS says: In transit, last seen in Louisville, KY/);
    await say(handle, 'bye');

    expect((await say(handle, 'I want to hunt for pirate treasure')).reply).toMatch(
      /^Ahoy, matey! Cap'n Redbeard here/,
    );
    expect(await goal()).toBe('goal_pirate_treasure');
    expect((await say(handle, 'give me a hint')).reply).toBe(
      `Hint number 1: ${HINTS[0]} Where be yer guess? ("guess <street>, <city>, <state>")`,
    );
    expect((await say(handle, 'guess 1 Infinite Loop, Cupertino, CA')).reply).toMatch(/^Nothin' but sand/);
    expect((await say(handle, 'guess 300 Lenora St, Seattle, WA')).reply).toMatch(/^Shiver me timbers!/);
    expect(treasureHunts(bed.demo.store)[handle.workflowId]).toMatchObject({ hintsGiven: 1, found: true });

    expect(
      (await steps(handle)).filter(([tool]) => !['ListAgents', 'ChangeGoal', 'CompleteGoal'].includes(tool!)),
    ).toEqual([
      ['ListOrders', 'ok'],
      ['GetOrder', 'ok'],
      ['TrackPackage', 'ok'],
      ['GiveHint', 'ok'],
      ['GuessTreasureLocation', 'ok'],
      ['GuessTreasureLocation', 'ok'],
    ]);
    await handle.signal(endChatSignal);
  });
});
