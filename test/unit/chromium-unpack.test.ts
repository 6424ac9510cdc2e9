// testkit/chromium.ts: @sparticuz/chromium unpacked once however many processes ask for it at once, each able to
// launch it straight away. The package left to itself (os.tmpdir()/chromium, any file there taken as ready) gave
// processes asking at once a browser another was still writing: `spawn ETXTBSY`.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { packagedChromium } from '../../testkit/chromium';

const CHROMIUM_TS = path.join(__dirname, '..', '..', 'testkit', 'chromium.ts');

// One process asking, as a test file does: the browser's path, then launching it at once.
const ASK = `
const { execFileSync } = require('node:child_process');
const { packagedChromium } = require(${JSON.stringify(CHROMIUM_TS)});
packagedChromium(process.argv[1]).then((got) => {
  const version = execFileSync(got.path, ['--version'], { encoding: 'utf8' }).trim();
  process.stdout.write(JSON.stringify({ ...got, version }));
});`;

async function askInAChild(cacheRoot: string): Promise<{ path: string; unpacked: boolean; version: string }> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--require', 'tsx/cjs', '-e', ASK, cacheRoot]);
  return JSON.parse(stdout) as { path: string; unpacked: boolean; version: string };
}

const roots: string[] = [];
const emptyCacheRoot = () => {
  const root = mkdtempSync(path.join(tmpdir(), 'chromium-cache-'));
  roots.push(root);
  return root;
};
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

describe('the packaged Chromium', () => {
  it('is unpacked once when four processes ask at once, and each launches it', async () => {
    const root = emptyCacheRoot();
    const answers = await Promise.all([1, 2, 3, 4].map(() => askInAChild(root)));
    const [first] = answers;
    expect(path.dirname(path.dirname(first!.path))).toBe(root);
    expect(answers.map((a) => a.path)).toEqual(answers.map(() => first!.path));
    expect(answers.filter((a) => a.unpacked)).toHaveLength(1);
    for (const a of answers) expect(a.version).toMatch(/^Chromium \d+\./);
    // Nothing else left: no lock, no half-unpacked folder.
    expect(readdirSync(root)).toEqual([path.basename(path.dirname(first!.path))]);
    // A later caller finds it ready.
    await expect(packagedChromium(root)).resolves.toEqual({ path: first!.path, unpacked: false });
  }, 120_000);

  it("removes an old version's browser and a killed unpacking's folder once it has unpacked", async () => {
    const root = emptyCacheRoot();
    mkdirSync(path.join(root, '0.0.1'));
    mkdirSync(path.join(root, '0.0.1.partial-12345'));
    const got = await packagedChromium(root);
    expect(got.unpacked).toBe(true);
    expect(existsSync(got.path)).toBe(true);
    expect(readdirSync(root)).toEqual([path.basename(path.dirname(got.path))]);
  }, 120_000);
});
