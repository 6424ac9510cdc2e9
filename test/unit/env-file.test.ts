// `.env` is read by every entry point; the environment wins; a broken line is named; values are then validated.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { applyEnvFile, parseEnvFile } from '../../runtime/env-file';
import { readWorkerSettings } from '../../worker/worker-settings';

describe('.env', () => {
  it('parses names, quotes, export and comments like config/example.env', () => {
    expect(
      parseEnvFile(
        ['# comment', '', 'A=1', 'export B = two words ', 'C="x # y"', "D='z'", 'E=5   # trailing note', 'F='].join(
          '\n',
        ),
      ),
    ).toEqual({
      A: '1',
      B: 'two words',
      C: 'x # y',
      D: 'z',
      E: '5',
      F: '',
    });
  });

  it('takes a quoted value before a comment without its quotes, and refuses an unclosed quote', () => {
    expect(parseEnvFile(`A="bar" # note\nB='x y'  # note`)).toEqual({ A: 'bar', B: 'x y' });
    expect(() => parseEnvFile('F="unterminated')).toThrow('.env line 1: the quote in F is not closed');
  });

  it('names the line it cannot read', () => {
    expect(() => parseEnvFile('A=1\nnot a setting\n', '/x/.env')).toThrow(
      '/x/.env line 2: expected NAME=value, got "not a setting"',
    );
  });

  it('fills only what the environment does not set, and its values are validated like the environment', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'envfile-'));
    writeFileSync(path.join(dir, '.env'), 'MAX_TOOL_STEPS=5\nTASK_QUEUE=from-file\nSHOW_CONFIRM=maybe\n');
    const env: NodeJS.ProcessEnv = { TASK_QUEUE: 'from-env' };
    expect(applyEnvFile(env, dir)).toBe(path.join(dir, '.env'));
    expect(env).toMatchObject({ MAX_TOOL_STEPS: '5', TASK_QUEUE: 'from-env' });
    expect(() => readWorkerSettings(env)).toThrow(/SHOW_CONFIRM must be true or false, got "maybe"/);
  });

  it('is optional, unless ENV_FILE names a file that is missing', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'envfile-'));
    expect(applyEnvFile({}, dir)).toBeNull();
    expect(() => applyEnvFile({ ENV_FILE: 'nope.env' }, dir)).toThrow('ENV_FILE=nope.env: no such file');
  });
});
