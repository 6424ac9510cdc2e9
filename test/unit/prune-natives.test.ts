// worker/prune-natives.ts: npm install keeps the one @temporalio/core-bridge binary this platform loads, named as
// core-bridge itself names it (its common.js), and deletes nothing when it does not know the platform.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CoreBridgeTargets, keptRelease, pruneOtherPlatforms, releasesToPrune } from '../../worker/prune-natives';

const CORE_BRIDGE = path.dirname(require.resolve('@temporalio/core-bridge/package.json'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const targets = require(path.join(CORE_BRIDGE, 'common.js')) as CoreBridgeTargets & {
  getPrebuiltTargetName(): string;
};
const SHIPPED = [
  'aarch64-apple-darwin',
  'aarch64-unknown-linux-gnu',
  'x86_64-apple-darwin',
  'x86_64-pc-windows-msvc',
  'x86_64-unknown-linux-gnu',
];
const others = (kept: string) => SHIPPED.filter((f) => f !== kept);

describe("pruning @temporalio/core-bridge's other platforms", () => {
  it('keeps the folder core-bridge loads on each platform it ships a binary for', () => {
    expect(releasesToPrune(SHIPPED, 'linux', 'x64', targets)).toEqual(others('x86_64-unknown-linux-gnu'));
    expect(releasesToPrune(SHIPPED, 'linux', 'arm64', targets)).toEqual(others('aarch64-unknown-linux-gnu'));
    expect(releasesToPrune(SHIPPED, 'darwin', 'arm64', targets)).toEqual(others('aarch64-apple-darwin'));
    expect(releasesToPrune(SHIPPED, 'darwin', 'x64', targets)).toEqual(others('x86_64-apple-darwin'));
    expect(releasesToPrune(SHIPPED, 'win32', 'x64', targets)).toEqual(others('x86_64-pc-windows-msvc'));
    // This process: the name core-bridge computes for itself.
    expect(keptRelease(process.platform, process.arch, targets)).toBe(targets.getPrebuiltTargetName());
  });

  it('deletes nothing on a platform or arch it has no binary for, or when the folder for this one is missing', () => {
    expect(releasesToPrune(SHIPPED, 'freebsd', 'x64', targets)).toEqual([]);
    expect(releasesToPrune(SHIPPED, 'linux', 'ia32', targets)).toEqual([]);
    expect(releasesToPrune(SHIPPED, 'constructor', 'x64', targets)).toEqual([]);
    expect(releasesToPrune(SHIPPED, 'win32', 'arm64', targets)).toEqual([]);
    expect(releasesToPrune(others('x86_64-unknown-linux-gnu'), 'linux', 'x64', targets)).toEqual([]);
  });

  describe('on a copy of the package', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'core-bridge-'));
      writeFileSync(
        path.join(dir, 'common.js'),
        `module.exports = ${JSON.stringify({ archAlias: targets.archAlias, platformMapping: targets.platformMapping })};`,
      );
      for (const f of SHIPPED) {
        mkdirSync(path.join(dir, 'releases', f), { recursive: true });
        writeFileSync(path.join(dir, 'releases', f, 'index.node'), '');
      }
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));
    const left = () => readdirSync(path.join(dir, 'releases')).sort();

    it('deletes the other folders, says so, and keeps this one', () => {
      const said: string[] = [];
      const pruned = pruneOtherPlatforms((s) => said.push(s), {
        coreBridgeDir: dir,
        platform: 'darwin',
        arch: 'arm64',
        env: {},
      });
      expect(pruned).toEqual(others('aarch64-apple-darwin'));
      expect(left()).toEqual(['aarch64-apple-darwin']);
      expect(existsSync(path.join(dir, 'releases', 'aarch64-apple-darwin', 'index.node'))).toBe(true);
      expect(said.join('\n')).toMatch(/kept aarch64-apple-darwin.*KEEP_ALL_PLATFORMS=1/);
    });

    it('keeps them all with KEEP_ALL_PLATFORMS=1, or on an unknown platform', () => {
      const opts = { coreBridgeDir: dir, platform: 'linux', arch: 'x64' };
      expect(pruneOtherPlatforms(() => {}, { ...opts, env: { KEEP_ALL_PLATFORMS: '1' } })).toEqual([]);
      expect(pruneOtherPlatforms(() => {}, { ...opts, platform: 'sunos', env: {} })).toEqual([]);
      expect(left()).toEqual(SHIPPED);
    });
  });
});
