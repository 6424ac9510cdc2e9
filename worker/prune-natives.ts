// Other platforms' native binaries taken out of node_modules at `npm install` (postinstall: worker/pypi-binaries.ts).
// @temporalio/core-bridge ships the SDK's Rust core prebuilt for five targets, ~27 MB each
// (releases/<target>/index.node), and loads the one named by this process's arch and platform alone (its common.js,
// getPrebuiltTargetName; linux is always its -gnu build). The other four, ~110 MB, are never read here. A node_modules
// moved to another OS or arch would not run anyway: npm installs esbuild's, swc's, rollup's, lightningcss's binaries
// for this platform only (optional dependencies), so an install is this machine's already. KEEP_ALL_PLATFORMS=1 keeps
// them all; a platform or arch core-bridge has no binary for, or a missing folder for this one, prunes nothing.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

/** core-bridge's own names (common.js), so the folder kept is the one its index.js loads, whatever its version. */
export interface CoreBridgeTargets {
  archAlias: Record<string, string>;
  platformMapping: Record<string, string>;
}

/** The release folder core-bridge loads on `platform`/`arch`; undefined when it has none for them. */
export function keptRelease(platform: string, arch: string, targets: CoreBridgeTargets): string | undefined {
  const a = Object.hasOwn(targets.archAlias, arch) ? targets.archAlias[arch] : undefined;
  const p = Object.hasOwn(targets.platformMapping, platform) ? targets.platformMapping[platform] : undefined;
  return a && p ? `${a}-${p}` : undefined;
}

/** Of the release `folders` present, those to delete: all but the one loaded here; none if that one is unknown or
 * not among them. */
export function releasesToPrune(
  folders: string[],
  platform: string,
  arch: string,
  targets: CoreBridgeTargets,
): string[] {
  const kept = keptRelease(platform, arch, targets);
  return kept && folders.includes(kept) ? folders.filter((f) => f !== kept) : [];
}

export interface PruneOptions {
  env?: NodeJS.ProcessEnv;
  platform?: string;
  arch?: string;
  /** The core-bridge package's folder (default: the one node resolves from here). */
  coreBridgeDir?: string;
}

/** Deletes core-bridge's other platforms' release folders; returns those deleted. Never throws: a failure is logged. */
export function pruneOtherPlatforms(log: (s: string) => void, opts: PruneOptions = {}): string[] {
  const env = opts.env ?? process.env;
  if (env.KEEP_ALL_PLATFORMS === '1') return [];
  try {
    const dir = opts.coreBridgeDir ?? path.dirname(require.resolve('@temporalio/core-bridge/package.json'));
    const releases = path.join(dir, 'releases');
    if (!existsSync(releases)) return [];
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const targets = require(path.join(dir, 'common.js')) as CoreBridgeTargets;
    const folders = readdirSync(releases, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    const platform = opts.platform ?? process.platform;
    const arch = opts.arch ?? process.arch;
    const pruned = releasesToPrune(folders, platform, arch, targets);
    for (const f of pruned) rmSync(path.join(releases, f), { recursive: true, force: true });
    if (pruned.length) {
      log(
        `@temporalio/core-bridge: kept ${keptRelease(platform, arch, targets)}, deleted other platforms' binaries ` +
          `(${pruned.join(', ')}; KEEP_ALL_PLATFORMS=1 keeps them)`,
      );
    }
    return pruned;
  } catch (err) {
    log(`warning: @temporalio/core-bridge's other platforms' binaries were kept: ${(err as Error).message}`);
    return [];
  }
}
