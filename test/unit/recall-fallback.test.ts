// The recall before planning when the memory store cannot be reached (its server down): the planning activity gets no
// memories and a warning, not a failure, so the turn still answers.
import { tmpdir } from 'node:os';
import { MockActivityEnvironment } from '@temporalio/testing';
import { recaller } from '../../activities/llm/recall';
import { LazyMemoryStore, readMemorySettings } from '../../memory/open-store';
import { freePort } from '../../testkit/redis-server';

it('recalls nothing, with a warning, when the store cannot be reached', async () => {
  const url = `postgres://postgres@127.0.0.1:${await freePort()}/none`;
  const store = new LazyMemoryStore(readMemorySettings({ DATABASE_URL: url }, tmpdir()));
  const recall = recaller({ store, recallTokens: 500 });
  const env = new MockActivityEnvironment();
  const warnings: string[] = [];
  const logged = env.context.log;
  env.context.log.warn = (message: string) => void warnings.push(message);
  try {
    await expect(env.run(() => recall({ owner: 'ada', goalId: 'goal_x' }, 'who is my manager'))).resolves.toEqual([]);
  } finally {
    env.context.log.warn = logged.warn;
    await store.close();
  }
  expect(warnings).toEqual([expect.stringMatching(/^memory: nothing recalled for this turn: .*ECONNREFUSED/)]);
});
