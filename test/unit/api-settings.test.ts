// API settings and keys: who may call, where it listens, and the errors that name the variable to fix.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiKeys, LOCAL_CALLER } from '../../api/auth';
import { readApiSettings } from '../../api/api-settings';
import { eventId, parseEventId } from '../../api/live-feed';

describe('readApiSettings', () => {
  it('listens on 127.0.0.1:8080 without keys, refuses another host without them', () => {
    expect(readApiSettings({})).toMatchObject({ port: 8080, host: '127.0.0.1', keys: null, corsOrigins: [] });
    expect(() => readApiSettings({ API_HOST: '0.0.0.0' })).toThrow(/API_HOST=0.0.0.0 needs API_KEYS/);
    expect(readApiSettings({ API_HOST: '0.0.0.0', API_KEYS: 'ops=0123456789abcdef0123' }).host).toBe('0.0.0.0');
  });

  it('names the variable of a bad value', () => {
    expect(() => readApiSettings({ API_PORT: 'eighty' })).toThrow(/API_PORT must be a whole number/);
    expect(() => readApiSettings({ API_BODY_LIMIT: '10' })).toThrow(/API_BODY_LIMIT/);
    expect(() => readApiSettings({ API_KEYS: 'short' })).toThrow(/shorter than 16/);
    expect(() => readApiSettings({ API_KEYS: 'bad owner=0123456789abcdef0123' })).toThrow(/owner "bad owner"/);
    expect(() => readApiSettings({ API_KEYS: '@/nonexistent/keys' })).toThrow(/API_KEYS names the file/);
  });

  it("reads the worker's blob store and its limits, refusing a bad value by its name", () => {
    expect(readApiSettings({ DATA_DIR: '/srv/agent', FILE_MAX_MB: '5' }).files).toEqual({
      place: { kind: 'fs', dir: '/srv/agent/blobs' },
      limits: { fileMaxBytes: 5 * 1024 * 1024, conversationMaxBytes: 200 * 1024 * 1024 },
    });
    expect(() => readApiSettings({ BLOB_STORE: 's3' })).toThrow('BLOB_STORE=s3 needs S3_BUCKET');
    expect(() => readApiSettings({ FILE_MAX_MB: 'big' })).toThrow(/^FILE_MAX_MB must be a number of megabytes/);
  });

  it('reads keys from a file, one per line, comments left out', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'keys-')), 'keys');
    writeFileSync(file, '# team keys\nalice=aaaaaaaaaaaaaaaaaaaa\nbbbbbbbbbbbbbbbbbbbb\n');
    const { keys } = readApiSettings({ API_KEYS: `@${file}` });
    expect(keys?.size).toBe(2);
    expect(keys?.callerOf('Bearer aaaaaaaaaaaaaaaaaaaa')).toEqual({ owner: 'alice', admin: false });
    // A key without an owner name stands for an owner derived from its hash, never the key itself.
    const unnamed = keys?.callerOf('Bearer bbbbbbbbbbbbbbbbbbbb');
    expect(unnamed?.owner).toMatch(/^key-[0-9a-f]{12}$/);
    expect(unnamed?.owner).not.toContain('bbbb');
  });
});

describe('ApiKeys', () => {
  const keys = new ApiKeys(['alice=alice-key-0123456789'], ['root=admin-key-0123456789']);
  it('knows callers by bearer key only', () => {
    expect(keys.callerOf('Bearer alice-key-0123456789')).toEqual({ owner: 'alice', admin: false });
    expect(keys.callerOf('bearer   admin-key-0123456789 ')).toEqual({ owner: 'root', admin: true });
    expect(keys.callerOf('Bearer alice-key-012345678')).toBeNull();
    expect(keys.callerOf('alice-key-0123456789')).toBeNull();
    expect(keys.callerOf(undefined)).toBeNull();
    expect(LOCAL_CALLER.admin).toBe(true);
  });
});

describe('event ids', () => {
  it('round-trip a position and refuse anything else', () => {
    const p = { next: 12, attempt: 'run-1/7/2', offset: 340 };
    expect(parseEventId(eventId(p))).toEqual(p);
    expect(parseEventId(eventId({ next: 0, attempt: '', offset: 0 }))).toEqual({ next: 0, attempt: '', offset: 0 });
    expect(parseEventId('garbage')).toBeNull();
    expect(parseEventId(undefined)).toBeNull();
  });
});
