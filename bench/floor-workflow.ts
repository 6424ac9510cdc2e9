// The benchmark's floor: the smallest workflow shaped like a chat turn. An update schedules one activity and
// returns its result, so the client waits for the same Temporal round trips a turn needs, minus the agent.
import {
  allHandlersFinished,
  condition,
  defineSignal,
  defineUpdate,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import type { FloorActivities } from './floor-activities';

/** Runs one activity and returns what it returned. */
export const roundTripUpdate = defineUpdate<string, [string]>('roundTrip');
/** Ends the workflow once the handlers in flight have finished. */
export const stopSignal = defineSignal('stop');

// The same timeouts as the agent's native tool activities, so the activity options are not what differs.
const { echo } = proxyActivities<FloorActivities>({
  startToCloseTimeout: '1 minute',
  scheduleToCloseTimeout: '3 minutes',
  retry: { initialInterval: '1 second', maximumAttempts: 3 },
});

/** Returns how many round trips it served. */
export async function FloorWorkflow(): Promise<number> {
  let stopped = false;
  let trips = 0;
  setHandler(roundTripUpdate, async (text: string) => {
    const result = await echo(text);
    trips++;
    return result;
  });
  setHandler(stopSignal, () => {
    stopped = true;
  });
  await condition(() => stopped);
  await condition(allHandlersFinished);
  return trips;
}
