// `npm start` records the dev server it runs; the CLI and `npm run worker` use it when TEMPORAL_ADDRESS is unset.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { embeddedServer, recordEmbeddedServer, temporalTarget } from '../../runtime/connection';

describe('the embedded server hand-off', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'handoff-'));
  const env = { DATA_DIR: dataDir };

  it('is found while the npm start that recorded it runs, and forgotten after', () => {
    expect(temporalTarget(env).connectionOptions.address).toBe('127.0.0.1:7233');
    const forget = recordEmbeddedServer({ address: '127.0.0.1:41234', uiUrl: 'http://127.0.0.1:41235' }, env);
    expect(embeddedServer(env)).toMatchObject({ address: '127.0.0.1:41234', pid: process.pid });
    expect(temporalTarget(env).connectionOptions.address).toBe('127.0.0.1:41234');
    // TEMPORAL_ADDRESS still wins.
    expect(temporalTarget({ ...env, TEMPORAL_ADDRESS: 'elsewhere:7233' }).connectionOptions.address).toBe(
      'elsewhere:7233',
    );
    forget();
    expect(temporalTarget(env).connectionOptions.address).toBe('127.0.0.1:7233');
  });

  it('ignores a record left by an npm start that is gone', () => {
    writeFileSync(
      path.join(dataDir, 'temporal-server.json'),
      JSON.stringify({ address: '127.0.0.1:41234', uiUrl: null, pid: 2 ** 22 + 12345 }),
    );
    expect(embeddedServer(env)).toBeNull();
    expect(temporalTarget(env).connectionOptions.address).toBe('127.0.0.1:7233');
  });
});
