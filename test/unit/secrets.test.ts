// The one scrubber at the worker's boundary: configured values and token-shaped strings are blanked in text,
// nested results, errors (class, type and retryability kept) and log lines.
import { ApplicationFailure } from '@temporalio/common';
import { SecretScrubber } from '../../activities/secrets';

describe('SecretScrubber', () => {
  const secrets = new SecretScrubber().add('hunter2-long', undefined, 'abc');

  it('blanks configured values (short ones are ignored) and strings shaped like keys and bearer tokens', () => {
    expect(secrets.scrub('pw hunter2-long, abc')).toBe('pw [secret], abc');
    expect(secrets.scrub('Incorrect API key provided: sk-proj-ABCDEF0123456789xyz. See docs')).toBe(
      'Incorrect API key provided: [secret]. See docs',
    );
    expect(secrets.scrub('Authorization: Bearer eyJhbGciOi.J9x-y_z')).toBe('Authorization: [secret]');
    expect(secrets.scrub('stripe sk_test_4eC39HqLyjWDarjtT1zdp7dc and rk_live_0123456789abcdefgh')).toBe(
      'stripe [secret] and [secret]',
    );
    expect(secrets.scrub('order ORD-1001, invoice in_1001, item ii_1001')).toBe(
      'order ORD-1001, invoice in_1001, item ii_1001',
    );
  });

  it('scrubs nested results and keeps their shape', () => {
    expect(
      secrets.scrubDeep({ status: 'tool_error', error: 'token hunter2-long', n: 3, list: ['hunter2-long', true] }),
    ).toEqual({
      status: 'tool_error',
      error: 'token [secret]',
      n: 3,
      list: ['[secret]', true],
    });
  });

  it('scrubs errors in place, causes too, keeping an ApplicationFailure what it was', () => {
    const failure = ApplicationFailure.create({
      message: 'refused hunter2-long',
      type: 'LlmAuth',
      nonRetryable: true,
      cause: new Error('inner sk-ant-api03-0123456789abcdef'),
    });
    const scrubbed = secrets.scrubError(failure);
    expect(scrubbed).toBe(failure);
    expect(scrubbed).toMatchObject({ message: 'refused [secret]', type: 'LlmAuth', nonRetryable: true });
    expect((scrubbed.cause as Error).message).toBe('inner [secret]');
    expect(scrubbed.stack).not.toContain('hunter2-long');
  });

  it('scrubs what a logger passes on, message and metadata', () => {
    const lines: unknown[] = [];
    const inner = { log: (...a: unknown[]) => lines.push(a), trace() {}, debug() {}, info() {}, warn() {}, error() {} };
    secrets
      .logger(inner)
      .warn('Activity failed: hunter2-long', { error: new Error('key sk-0123456789abcdefghij'), attempt: 2 });
    expect(JSON.stringify(lines, (_k, v) => (v instanceof Error ? v.message : v))).not.toMatch(/hunter2-long|sk-0123/);
    expect(lines[0]).toEqual(['WARN', 'Activity failed: [secret]', { error: expect.any(Error), attempt: 2 }]);
  });
});
