// The workflow bundle a worker run from source keeps (worker/bundle-cache.ts): named by a hash of what it is made of,
// so an edit to the workflow code, to core/ or to the lockfile makes the next start bundle again.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cachedWorkflowBundle, codeHash } from '../../worker/bundle-cache';

describe('the workflow bundle cache', () => {
  it('names code by a hash that changes with any file of it, its names, and the lockfile', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'bundle-hash-'));
    const folders = [path.join(root, 'workflows'), path.join(root, 'core')];
    for (const f of folders) mkdirSync(path.join(f, 'nested'), { recursive: true });
    writeFileSync(path.join(root, 'workflows', 'index.ts'), 'export {};');
    writeFileSync(path.join(root, 'core', 'nested', 'types.ts'), 'export type A = 1;');
    writeFileSync(path.join(root, 'package-lock.json'), '{"v":1}');
    const seen = new Set<string>();
    const hash = () => codeHash(folders, root);
    const first = hash();
    expect(hash()).toBe(first);
    seen.add(first);
    writeFileSync(path.join(root, 'core', 'nested', 'types.ts'), 'export type A = 2;');
    seen.add(hash());
    renameSync(path.join(root, 'core', 'nested', 'types.ts'), path.join(root, 'core', 'nested', 'kinds.ts'));
    seen.add(hash());
    writeFileSync(path.join(root, 'workflows', 'more.ts'), '');
    seen.add(hash());
    writeFileSync(path.join(root, 'package-lock.json'), '{"v":2}');
    seen.add(hash());
    expect(seen.size).toBe(5);
    expect(first).toMatch(/^[0-9a-f]{32}$/);
  });

  it('bundles once, then loads what it kept; a bundle of other code is dropped', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bundle-cache-'));
    const stale = path.join(dir, `${'0'.repeat(32)}-plain.js`);
    writeFileSync(stale, 'old code');
    const made = await cachedWorkflowBundle(false, dir);
    expect(made.code).toContain('AgentGoalWorkflow');
    expect(existsSync(stale)).toBe(false);
    const kept = readdirSync(dir);
    expect(kept).toEqual([expect.stringMatching(/^[0-9a-f]{32}-plain\.js$/)]);
    const written = statSync(path.join(dir, kept[0]!)).mtimeMs;

    const again = await cachedWorkflowBundle(false, dir);
    expect(again.code).toBe(made.code);
    // Read, not bundled again: a bundle made is written anew.
    expect(statSync(path.join(dir, kept[0]!)).mtimeMs).toBe(written);
    expect(readdirSync(dir)).toEqual(kept);
  });

  it('still bundles when the folder cannot be written', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'bundle-cache-ro-')), 'a-file');
    writeFileSync(file, '');
    // A folder under a file cannot be made: nothing is kept, the bundle is still given.
    const made = await cachedWorkflowBundle(false, path.join(file, 'cache'));
    expect(made.code).toContain('AgentGoalWorkflow');
  });
});
