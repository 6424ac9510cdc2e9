// testkit/build-lock.ts: builds of dist/ one at a time across processes, a lock left by a dead process taken over,
// and one build per jest run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildOncePerRun, withBuildLock } from '../../testkit/build-lock';

const freshLock = () => path.join(mkdtempSync(path.join(tmpdir(), 'build-lock-')), 'build.lock');

describe('the build lock', () => {
  it('runs builds one at a time, and is gone after', async () => {
    const lock = freshLock();
    const events: string[] = [];
    const build = (name: string) =>
      withBuildLock(async () => {
        events.push(`${name} starts`);
        await new Promise((r) => setTimeout(r, 300));
        events.push(`${name} ends`);
      }, lock);
    await Promise.all([build('a'), build('b')]);
    expect([
      ['a starts', 'a ends', 'b starts', 'b ends'],
      ['b starts', 'b ends', 'a starts', 'a ends'],
    ]).toContainEqual(events);
    expect(existsSync(lock)).toBe(false);
  });

  it('is released when the build fails', async () => {
    const lock = freshLock();
    await expect(withBuildLock(() => Promise.reject(new Error('tsc failed')), lock)).rejects.toThrow('tsc failed');
    expect(existsSync(lock)).toBe(false);
  });

  it('takes over a lock whose owner died holding it', async () => {
    const lock = freshLock();
    const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid!;
    mkdirSync(lock);
    writeFileSync(path.join(lock, 'pid'), String(dead));
    await expect(withBuildLock(async () => 'built', lock)).resolves.toBe('built');
  });

  it('builds once per run: files asking at once wait for the one build; a failed build is tried again', async () => {
    const lock = freshLock();
    const folder = mkdtempSync(path.join(tmpdir(), 'agent-tests-'));
    let builds = 0;
    const build = async () => {
      builds++;
      await new Promise((r) => setTimeout(r, 100));
    };
    await Promise.all([1, 2, 3].map(() => buildOncePerRun(build, { lock, folder })));
    expect(builds).toBe(1);

    const other = mkdtempSync(path.join(tmpdir(), 'agent-tests-'));
    await expect(
      buildOncePerRun(() => Promise.reject(new Error('tsc failed')), { lock, folder: other }),
    ).rejects.toThrow();
    await buildOncePerRun(build, { lock, folder: other });
    expect(builds).toBe(2);
  });
});
