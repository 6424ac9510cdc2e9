// Hooks are found like tools (one file each in HOOKS_DIR), checked when the worker starts, and run in the order HOOKS
// names them; a bad file, a name no file has, or settings a hook refuses stop the start, naming the file or setting.
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_HOOKS_FOLDER, loadHooks, readHookFolder } from '../../activities/hooks/load-hooks';
import { defineHook } from '../../core/hooks';
import { testSettings } from '../../testkit/temporal';
import { secretsOf } from '../../worker/create-worker';

/** A folder with these files (name → source). */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'hooks-'));
  for (const [name, source] of Object.entries(files)) writeFileSync(path.join(dir, name), source);
  return dir;
}

const hookFile = (name: string, on = "'userMessage'") =>
  `module.exports = { default: { name: '${name}', on: ${on}, run() {} } };`;

describe('loading hooks', () => {
  it('finds the shipped examples in the project hooks folder', () => {
    const found = readHookFolder(DEFAULT_HOOKS_FOLDER);
    expect([...found.keys()].sort()).toEqual(['pii-redaction', 'topic-guardrail']);
    expect(found.get('pii-redaction')!.hook.on).toEqual(['userMessage', 'afterToolCall']);
  });

  it('runs none unless HOOKS names them, and those it names in its order', () => {
    expect(loadHooks({ folder: DEFAULT_HOOKS_FOLDER, enabled: [], settings: {} }).names()).toEqual([]);
    const both = loadHooks({
      folder: DEFAULT_HOOKS_FOLDER,
      enabled: ['topic-guardrail', 'pii-redaction'],
      settings: {},
    });
    expect(both.names()).toEqual(['topic-guardrail', 'pii-redaction']);
    expect(both.has('afterToolCall')).toBe(true);
    expect(both.has('beforeToolCall')).toBe(false);
  });

  it('reads HOOKS, HOOKS_DIR and the HOOK_* settings from the worker settings', () => {
    const dir = folder({ 'a.js': hookFile('a') });
    const settings = testSettings({ HOOKS: ' a ', HOOKS_DIR: dir, HOOK_GUARDRAIL_TOPICS: 'x: y', OTHER: 'z' });
    expect(settings.hooks).toEqual({ folder: dir, enabled: ['a'], settings: { HOOK_GUARDRAIL_TOPICS: 'x: y' } });
    expect(testSettings().hooks).toEqual({ folder: DEFAULT_HOOKS_FOLDER, enabled: [], settings: {} });
    expect(() => testSettings({ HOOKS: 'PII Redaction' })).toThrow(/HOOKS must be hook names separated by commas/);
  });

  it("blanks a hook's credentials (HOOK_*_KEY, _TOKEN, _SECRET, _PASSWORD) like the model's key", () => {
    const settings = testSettings({ HOOK_MODERATION_API_KEY: 'sk-moderation-123', HOOK_GUARDRAIL_TOPICS: 'politics' });
    const secrets = secretsOf(settings, {});
    expect(secrets.scrub('key sk-moderation-123, topics politics')).not.toContain('sk-moderation-123');
    expect(secrets.scrub('topics politics')).toBe('topics politics');
  });

  it('names the file whose default export is not a hook, or whose hook is wrong, or that does not load', () => {
    const notAHook = folder({ 'good.js': hookFile('good'), 'helper.js': 'module.exports = { redact() {} };' });
    expect(() => readHookFolder(notAHook)).toThrow(
      `${path.join(notAHook, 'helper.js')}: its default export is not a hook`,
    );

    const badPoint = folder({ 'late.js': hookFile('late', "'afterReply'") });
    expect(() => readHookFolder(badPoint)).toThrow(
      new RegExp(`${path.join(badPoint, 'late.js')}: on must be one of userMessage, beforeModelCall`),
    );
    const badName = folder({ 'n.js': hookFile('No Spaces') });
    expect(() => readHookFolder(badName)).toThrow(`${path.join(badName, 'n.js')}: name must be lower-case letters`);
    const noRun = folder({ 'r.js': "module.exports = { default: { name: 'r', on: 'userMessage' } };" });
    expect(() => readHookFolder(noRun)).toThrow(`${path.join(noRun, 'r.js')}: run must be a function`);
    const broken = folder({ 'broken.js': 'module.exports = {' });
    expect(() => readHookFolder(broken)).toThrow(`${path.join(broken, 'broken.js')}: could not be loaded: `);
    const twins = folder({ 'a.js': hookFile('same'), 'b.js': hookFile('same') });
    expect(() => readHookFolder(twins)).toThrow(
      `${path.join(twins, 'b.js')}: the hook name "same" is taken by ${path.join(twins, 'a.js')}`,
    );
  });

  it('a broken file stops the start even when HOOKS does not name it: a guardrail must not go missing quietly', () => {
    const dir = folder({ 'a.js': hookFile('a'), 'b.js': 'throw new Error("boom")' });
    expect(() => loadHooks({ folder: dir, enabled: ['a'], settings: {} })).toThrow(
      `${path.join(dir, 'b.js')}: could not be loaded: boom`,
    );
  });

  it('ignores subfolders (helpers), declarations, source maps and tests', () => {
    const dir = folder({ 'a.js': hookFile('a'), 'a.d.ts': 'export {}', 'a.js.map': '{}', 'a.test.ts': 'oops' });
    mkdirSync(path.join(dir, 'lib'));
    writeFileSync(path.join(dir, 'lib', 'x.js'), 'module.exports = 1;');
    expect([...readHookFolder(dir).keys()]).toEqual(['a']);
  });

  it('names HOOKS when it names a hook the folder lacks, and what the folder has', () => {
    const dir = folder({ 'a.js': hookFile('a') });
    expect(() => loadHooks({ folder: dir, enabled: ['a', 'b'], settings: {} })).toThrow(
      `HOOKS: no hook named "b" in ${dir} (HOOKS_DIR; it has: a)`,
    );
    expect(() => loadHooks({ folder: path.join(dir, 'none'), enabled: ['a'], settings: {} })).toThrow(/it has: none/);
    expect(loadHooks({ folder: path.join(dir, 'none'), enabled: [], settings: {} }).names()).toEqual([]);
  });

  it('configures each hook once with the HOOK_* settings, and names the hook whose settings are refused', () => {
    const seen: unknown[] = [];
    const inCode = defineHook({
      name: 'counted',
      on: 'userMessage',
      configure: (s) => {
        seen.push(s);
        return 1;
      },
      run: () => undefined,
    });
    const runner = loadHooks({ folder: DEFAULT_HOOKS_FOLDER, enabled: [], settings: { HOOK_X: '1' } }, [inCode]);
    expect(runner.names()).toEqual(['counted']);
    expect(seen).toEqual([{ HOOK_X: '1' }]);

    expect(() =>
      loadHooks({
        folder: DEFAULT_HOOKS_FOLDER,
        enabled: ['topic-guardrail'],
        settings: { HOOK_GUARDRAIL_TOPICS: 'politics: ,' },
      }),
    ).toThrow(
      /topic-guardrail\.ts: the hook "topic-guardrail" refused its settings: HOOK_GUARDRAIL_TOPICS: "politics: ," has no topic or no words/,
    );
  });

  it('hooks in code run before those HOOKS names, and a name may not be used twice', () => {
    const pii = defineHook({ name: 'pii-redaction', on: 'userMessage', run: () => undefined });
    expect(() => loadHooks({ folder: DEFAULT_HOOKS_FOLDER, enabled: ['pii-redaction'], settings: {} }, [pii])).toThrow(
      'HOOKS: the hook "pii-redaction" is named twice',
    );
    const mine = defineHook({ name: 'mine', on: 'beforeToolCall', run: () => undefined });
    const runner = loadHooks({ folder: DEFAULT_HOOKS_FOLDER, enabled: ['topic-guardrail'], settings: {} }, [mine]);
    expect(runner.names()).toEqual(['mine', 'topic-guardrail']);
    expect(() => loadHooks(undefined, [{ name: 'x' } as never])).toThrow('code: on must be one of');
  });
});
