// worker/pypi-binaries.ts: requirements a binary never imports are deleted from its pip --target copy (moto's S3
// server and cryptography: testkit/test-binaries.ts), with their native modules and metadata, and nothing else.
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dropRequirements } from '../../worker/pypi-binaries';

describe('dropRequirements', () => {
  it('deletes each package named, its native module and its metadata; keeps the rest', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pip-target-'));
    for (const folder of ['cryptography', 'cryptography-51.0.1.dist-info', 'cffi', 'cffi-2.1.1.dist-info', 'moto'])
      mkdirSync(path.join(dir, folder));
    mkdirSync(path.join(dir, 'cryptography_vectors'));
    for (const file of ['_cffi_backend.cpython-311-x86_64-linux-gnu.so', 'six.py', 'cffi_helper.py'])
      writeFileSync(path.join(dir, file), '');
    dropRequirements(dir, ['cryptography', 'cffi', '_cffi_backend']);
    expect(readdirSync(dir).sort()).toEqual(['cffi_helper.py', 'cryptography_vectors', 'moto', 'six.py']);
  });
});
