// GitHub's OpenAPI description of api.github.com (generated/api.github.com.json of @octokit/openapi, MIT: 12.4 MB,
// 1,223 operations): the big real-world document the HTTP API tests and bench load. The package holds 385 MB (every
// GHES version, each also dereferenced) for this one file, so it is no dependency: `npm install` (the postinstall,
// worker/pypi-binaries.ts, through testkit/test-binaries.ts) takes the file alone out of the package's tarball, got by `npm pack` through npm's cache and
// registry and checked against the integrity pinned here, into node_modules/.cache. What reads it calls
// githubOpenApiDocument(), which throws, saying how to get it, when it is missing.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createGunzip } from 'node:zlib';
import { PROJECT_ROOT } from '../tools/project-root';

/** The package version the tests' figures (1,223 operations) hold for, and its tarball's integrity (the registry's). */
const PACKAGE = '@octokit/openapi';
const VERSION = '23.0.2';
const INTEGRITY = 'sha512-pV8M7L9GY23AybNvTmo2nyjmpmnt6+2sRE/tqr0ZLQcPS4lnw7u5eZGNmwRNkBC3D7gZXbFx5AHzLUVRBXGDhg==';
/** The file inside the tarball (npm puts a package's files under package/). */
const IN_TARBALL = 'package/generated/api.github.com.json';

/** Inside node_modules: a fresh `npm install` makes it anew, and git never sees it. A new VERSION, a new folder. */
export const GITHUB_OPENAPI_DOCUMENT = path.join(
  PROJECT_ROOT,
  'node_modules',
  '.cache',
  `octokit-openapi-${VERSION}`,
  'api.github.com.json',
);

const INSTALL_COMMAND = 'npx tsx testkit/github-openapi.ts install';

export const MISSING_GITHUB_OPENAPI =
  `GitHub's OpenAPI document (${PACKAGE}@${VERSION}, ${path.posix.relative('package', IN_TARBALL)}) was not found at ` +
  `${path.relative(PROJECT_ROOT, GITHUB_OPENAPI_DOCUMENT)}. \`npm install\` puts it there (it needs the npm registry, or ` +
  `the package in npm's cache); run npm install again, or \`${INSTALL_COMMAND}\`.`;

/** The document's path; throws, saying how to get it, when it is missing. */
export function githubOpenApiDocument(): string {
  if (!existsSync(GITHUB_OPENAPI_DOCUMENT)) throw new Error(MISSING_GITHUB_OPENAPI);
  return GITHUB_OPENAPI_DOCUMENT;
}

/** Takes the document out of the package's tarball unless it is there already; returns its path. */
export async function installGithubOpenApi(log: (s: string) => void = console.log): Promise<string> {
  if (existsSync(GITHUB_OPENAPI_DOCUMENT)) return GITHUB_OPENAPI_DOCUMENT;
  log(
    `taking GitHub's OpenAPI document out of ${PACKAGE}@${VERSION}'s tarball into ${path.relative(process.cwd(), GITHUB_OPENAPI_DOCUMENT)}`,
  );
  const tmp = mkdtempSync(path.join(tmpdir(), 'octokit-openapi-'));
  try {
    const tarball = npmPack(`${PACKAGE}@${VERSION}`, tmp);
    const integrity = `sha512-${await hashOf(tarball, 'sha512')}`;
    if (integrity !== INTEGRITY) throw new Error(`${tarball} has integrity ${integrity}, not the pinned ${INTEGRITY}`);
    const text = await extractOne(tarball, IN_TARBALL);
    if (!text) throw new Error(`${PACKAGE}@${VERSION}'s tarball has no ${IN_TARBALL}`);
    // Written whole or not at all: a partial file would be found next time and fail as a broken document.
    mkdirSync(path.dirname(GITHUB_OPENAPI_DOCUMENT), { recursive: true });
    const partial = `${GITHUB_OPENAPI_DOCUMENT}.${process.pid}.partial`;
    writeFileSync(partial, text);
    renameSync(partial, GITHUB_OPENAPI_DOCUMENT);
    return GITHUB_OPENAPI_DOCUMENT;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** `npm pack <spec>` into `dest` (npm's cache, else its registry; no scripts run): the tarball's path. */
function npmPack(spec: string, dest: string): string {
  // The npm running this (postinstall, npm run, npx) when there is one, else the npm on PATH.
  const npmCli = process.env.npm_execpath;
  const viaNode = npmCli !== undefined && path.basename(npmCli) === 'npm-cli.js';
  const env = { ...process.env };
  // `npm install -w bench` passes its workspace on: `npm pack` would pack that workspace instead of the spec.
  for (const k of Object.keys(env)) if (/^npm_config_(workspaces?|include_workspace_root)$/i.test(k)) delete env[k];
  const out = execFileSync(
    viaNode ? process.execPath : 'npm',
    [...(viaNode ? [npmCli] : []), 'pack', spec, '--pack-destination', dest, '--json', '--ignore-scripts'],
    {
      cwd: PROJECT_ROOT,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      shell: !viaNode && process.platform === 'win32',
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const [packed] = JSON.parse(out) as { filename: string }[];
  if (!packed) throw new Error(`npm pack ${spec} printed no tarball`);
  return path.join(dest, packed.filename);
}

async function hashOf(file: string, algorithm: string): Promise<string> {
  const hash = createHash(algorithm);
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('base64');
}

/**
 * One regular file of a gzipped tar (ustar, with pax extended headers as npm writes them, or GNU long names), read as a stream and
 * stopped once it is found: its bytes, or undefined when the tarball has no such file.
 */
export async function extractOne(tgz: string, wanted: string): Promise<Buffer | undefined> {
  const BLOCK = 512;
  const stream = createReadStream(tgz).pipe(createGunzip());
  let pending: Buffer = Buffer.alloc(0);
  /** The entry whose data comes next: what is kept of it, and how many bytes (padding included) are still to come. */
  let entry: { name: string; type: string; size: number; left: number; kept?: Buffer[] } | undefined;
  let paxPath: string | undefined;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      let at = 0;
      for (;;) {
        if (entry) {
          const take = Math.min(entry.left, pending.length - at);
          if (take === 0) break;
          const dataLeft = entry.left - (padded(entry.size) - entry.size);
          if (entry.kept && dataLeft > 0) entry.kept.push(pending.subarray(at, at + Math.min(take, dataLeft)));
          at += take;
          entry.left -= take;
          if (entry.left > 0) break;
          const done = entry;
          entry = undefined;
          if (done.type === 'x') paxPath = paxField(Buffer.concat(done.kept!), 'path');
          else if (done.type === 'L')
            paxPath = Buffer.concat(done.kept!)
              .toString('utf8')
              .replace(/\0[\s\S]*$/, '');
          else if (done.kept) {
            const bytes = Buffer.concat(done.kept);
            if (bytes.length !== done.size)
              throw new Error(`${wanted}: ${bytes.length} bytes read, ${done.size} declared`);
            return bytes;
          }
          continue;
        }
        if (pending.length - at < BLOCK) break;
        const header = pending.subarray(at, at + BLOCK);
        at += BLOCK;
        if (header.every((b) => b === 0)) return undefined; // the end-of-archive blocks
        const field = (from: number, to: number) => header.toString('utf8', from, to).replace(/\0[\s\S]*$/, '');
        if (header[124]! & 0x80) throw new Error('a tar entry over 8 GB (a base-256 size): not expected here');
        const size = parseInt(field(124, 136).trim() || '0', 8);
        const type = field(156, 157) || '0';
        const prefix = header.toString('latin1', 257, 262) === 'ustar' ? field(345, 500) : '';
        const name = paxPath ?? (prefix ? `${prefix}/${field(0, 100)}` : field(0, 100));
        if (!'xgL'.includes(type)) paxPath = undefined;
        const keep = type === 'x' || type === 'L' || (name === wanted && type === '0');
        entry = { name, type, size, left: padded(size), kept: keep ? [] : undefined };
        if (entry.left === 0 && keep && type === '0') return Buffer.alloc(0);
        if (entry.left === 0) entry = undefined;
      }
      pending = pending.subarray(at);
    }
    return undefined;
  } finally {
    stream.destroy();
  }

  function padded(n: number): number {
    return Math.ceil(n / BLOCK) * BLOCK;
  }
}

/** A field of a pax extended header: records of `<length> <key>=<value>\n`. */
function paxField(data: Buffer, key: string): string | undefined {
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    const length = parseInt(data.toString('utf8', at, space), 10);
    if (space < 0 || !(length > 0)) break;
    const record = data.toString('utf8', space + 1, at + length - 1);
    const eq = record.indexOf('=');
    if (record.slice(0, eq) === key) return record.slice(eq + 1);
    at += length;
  }
  return undefined;
}

// `npm install` runs this through testkit/test-binaries.ts (the postinstall); by hand: `npx tsx testkit/github-openapi.ts install`.
if (require.main === module && process.argv[2] === 'install') {
  installGithubOpenApi().then(
    (file) => console.log(`GitHub's OpenAPI document: ${file}`),
    (err: Error) => {
      console.error(`${MISSING_GITHUB_OPENAPI} (${err.message})`);
      process.exitCode = 1;
    },
  );
}
