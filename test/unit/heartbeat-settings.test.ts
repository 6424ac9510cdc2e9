// HEARTBEAT_TIMEOUT: how soon a call whose worker died is given to another worker. Its floor leaves room for the
// 2 s between beats and for a sandboxed call, which holds its worker's beats for up to SANDBOX_TIMEOUT_MS.
import { readWorkerSettings } from '../../worker/worker-settings';

const heartbeat = (env: Record<string, string>) => readWorkerSettings(env).conversation.heartbeatTimeoutSeconds;

describe('HEARTBEAT_TIMEOUT', () => {
  it('is 10 s unless set; a duration of 5 s or more', () => {
    expect(heartbeat({})).toBe(10);
    expect(heartbeat({ HEARTBEAT_TIMEOUT: '5s' })).toBe(5);
    expect(heartbeat({ HEARTBEAT_TIMEOUT: '1m' })).toBe(60);
    expect(() => heartbeat({ HEARTBEAT_TIMEOUT: '4s' })).toThrow(
      /HEARTBEAT_TIMEOUT must be a duration of at least 5 s/,
    );
    expect(() => heartbeat({ HEARTBEAT_TIMEOUT: 'soon' })).toThrow(/HEARTBEAT_TIMEOUT/);
  });

  it('must outlast a sandboxed call by 4 s', () => {
    expect(heartbeat({ HEARTBEAT_TIMEOUT: '9s', SANDBOX_TIMEOUT_MS: '5000' })).toBe(9);
    expect(() => heartbeat({ HEARTBEAT_TIMEOUT: '6s', SANDBOX_TIMEOUT_MS: '3000' })).toThrow(
      /HEARTBEAT_TIMEOUT \(6 s\) must be at least SANDBOX_TIMEOUT_MS \+ 4 s \(7 s\): a sandboxed call holds its worker's heartbeats that long/,
    );
  });
});
