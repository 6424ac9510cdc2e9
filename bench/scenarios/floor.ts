// The floor: the smallest workflow shaped like a chat turn (an update that runs one no-op activity). What a chat
// turn costs above it is what the orchestrator costs: its workflow code, its payloads, the AI SDK path.
import type { Client } from '@temporalio/client';
import { FloorWorkflow, roundTripUpdate, stopSignal } from '../floor-workflow';
import type { TurnScenario } from '../scenario';
import { abortWorkflow, SessionRotation, type RotationPolicy, type Session } from '../session-rotation';

export function floorScenario(client: Client, taskQueue: string, runId: string, policy: RotationPolicy): TurnScenario {
  return {
    name: 'floor (update + 1 no-op activity)',
    description: 'FloorWorkflow: an update handler that awaits one activity returning its input, then returns it.',
    activitiesPerTurn: '1',
    sampler: new SessionRotation(policy, (seq) => openFloor(client, taskQueue, `bench-floor-${runId}-${seq}`)),
  };
}

async function openFloor(client: Client, taskQueue: string, workflowId: string): Promise<Session> {
  const handle = await client.workflow.start(FloorWorkflow, { taskQueue, workflowId });
  return {
    turn: () => handle.executeUpdate(roundTripUpdate, { args: ['ping'] }),
    check(result) {
      if (result !== 'ping') throw new Error(`floor: expected "ping", got ${JSON.stringify(result)}`);
    },
    async close(turns) {
      await handle.signal(stopSignal);
      const trips = await handle.result();
      if (trips !== turns) throw new Error(`floor: served ${trips} round trips, expected ${turns}`);
      const { historyLength } = await handle.describe();
      return { historyLength, runs: 1, history: await handle.fetchHistory() };
    },
    abort: () => abortWorkflow(handle),
  };
}
