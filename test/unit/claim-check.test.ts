// The claim check without a server: what history keeps of a result or a reply, with the real filesystem store.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { keepOutcome, keepReply } from '../../activities/claim-check';
import { openBlobStore, readBlobSettings } from '../../blobs';

const dir = mkdtempSync(path.join(tmpdir(), 'claim-check-unit-'));
const store = openBlobStore(readBlobSettings({ BLOB_DIR: dir }, dir));
const check = { store, thresholdChars: 1_000 };

describe('keepOutcome', () => {
  it('leaves a result under the threshold as it is', async () => {
    const outcome = { status: 'ok' as const, result: { a: 1 } };
    expect(await keepOutcome(outcome, { check, maxChars: 50_000, tool: 'T' })).toEqual(outcome);
  });

  it('keeps a bigger one whole: history gets the reference, a preview and how to read on', async () => {
    const rows = Array.from({ length: 500 }, (_, i) => ({ i, name: `row ${i}` }));
    const kept = await keepOutcome({ status: 'ok', result: { rows } }, { check, maxChars: 50_000, tool: 'Report' });
    expect(kept.status).toBe('ok');
    if (kept.status !== 'ok') return;
    expect(kept.stored).toMatchObject({ name: 'Report result', type: 'application/json' });
    expect(kept.stored!.size).toBe(JSON.stringify({ rows }).length);
    expect(kept.result).toMatchObject({ id: kept.stored!.id, note: expect.stringContaining('ReadFile') });
    expect(JSON.stringify(kept).length).toBeLessThan(3_000);
    // The bytes are the result, whole.
    expect(JSON.parse(Buffer.from(await store.get(kept.stored!.id)).toString('utf8'))).toEqual({ rows });
  });

  it('without a store, caps as before', async () => {
    const kept = await keepOutcome({ status: 'ok', result: 'x'.repeat(5_000) }, { maxChars: 1_000, tool: 'T' });
    expect(kept).toMatchObject({ status: 'ok', result: { truncated: true } });
  });
});

describe('keepReply', () => {
  it('keeps a reply over the limit whole and says where in its start', async () => {
    const text = 'word '.repeat(3_000);
    const kept = await keepReply(store, text, 1_000);
    expect(kept!.stored).toMatchObject({ name: 'reply', size: text.length });
    expect(kept!.text.startsWith(text.slice(0, 1_000))).toBe(true);
    expect(kept!.text).toContain(`is kept as file ${kept!.stored.id}: read on with ReadFile.`);
    expect(await keepReply(store, 'short', 1_000)).toBeNull();
  });
});
