import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { addDays, isoDay } from '../../core/days';
import { dataset, demoDay } from '../../tools/mock-data';
import { paycheckDeposits } from '../../tools/mock-data/hr';
import { loadFileStore } from '../../tools/mock-data/file-store';
import { TRAIN_TOOLS_QUEUE } from '../../tools/native/trains/task-queue';
import { demoDataFiles, resetDemoData } from '../../worker/demo-data';
import { demoDataFile, readWorkerSettings } from '../../worker/worker-settings';

describe('resetDemoData (npm start -- --reset)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'demo-data-'));
  const dataDir = path.join(dir, 'data');
  const registry = path.join(dir, 'mcp_endpoints.json');
  writeFileSync(
    registry,
    JSON.stringify({
      mcpServers: {
        shop: { command: 'node', args: ['shop.js'], cwd: dir, env: { SHOP_DATA_FILE: 'data/shop.json' } },
        vault: { command: 'node', env: { VAULT_DATA_FILE: '${env:VAULT_FILE}', VAULT_TOKEN: 'data/not-data.json' } },
      },
    }),
  );
  const settings = readWorkerSettings({ DATA_DIR: dataDir, MCP_ENDPOINTS_FILE: registry } as NodeJS.ProcessEnv);

  it('names the tool stores of every task queue and the files the demo servers keep their records in', () => {
    expect(demoDataFiles(settings)).toEqual([
      path.join(dataDir, 'mock-data.json'),
      path.join(dataDir, `mock-data-${TRAIN_TOOLS_QUEUE}.json`),
      path.join(dataDir, 'shop.json'),
    ]);
  });

  it('brings the used-up balances back to their seeds, and leaves the conversations alone', () => {
    mkdirSync(dataDir, { recursive: true });
    const store = loadFileStore(demoDataFile(settings));
    const ada = () => dataset(store, 'employees').find((e) => e.email === 'ada@example.com')!;
    ada().ptoHoursLeft = 8; // three README bookings later
    store.persist();
    writeFileSync(path.join(dataDir, 'shop.json'), '{"invoices":[{"id":"in_1001"}]}');
    writeFileSync(path.join(dataDir, 'temporal.db'), 'conversations');

    expect(resetDemoData(settings)).toEqual([path.join(dataDir, 'mock-data.json'), path.join(dataDir, 'shop.json')]);
    const fresh = loadFileStore(demoDataFile(settings));
    expect(dataset(fresh, 'employees').find((e) => e.email === 'ada@example.com')?.ptoHoursLeft).toBe(104);
    expect(existsSync(path.join(dataDir, 'shop.json'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'temporal.db'))).toBe(true);
    expect(resetDemoData(settings)).toEqual([]);
  });

  it('dates the demo data from the day it is first written, keeps those dates, and renews them on reset', () => {
    mkdirSync(dataDir, { recursive: true });
    resetDemoData(settings);
    const written = new Date();
    const later = new Date(written.getTime() + 400 * 86_400_000);
    const store = loadFileStore(demoDataFile(settings), () => written);
    const order = () => dataset(store, 'orders').find((o) => o.id === 'ORD-1001')!;
    expect(order().placedOn).toBe(addDays(isoDay(written), -10));
    expect(paycheckDeposits(store)[0]!.nextPayday > isoDay(written)).toBe(true);
    store.persist();

    // Read again 400 days on: the same world, its dates as written.
    const reread = loadFileStore(demoDataFile(settings), () => later);
    expect(demoDay(reread)).toBe(isoDay(written));
    expect(dataset(reread, 'orders').find((o) => o.id === 'ORD-1001')!.placedOn).toBe(order().placedOn);

    resetDemoData(settings);
    const renewed = loadFileStore(demoDataFile(settings), () => later);
    expect(dataset(renewed, 'orders').find((o) => o.id === 'ORD-1001')!.placedOn).toBe(addDays(isoDay(later), -10));
  });
});
