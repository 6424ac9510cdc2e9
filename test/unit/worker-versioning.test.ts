// worker/versioning.ts's settings and options, and how `agent deploy status` reads (client/deploy-command.ts).
import { formatStatus } from '../../client/deploy-command';
import { defaultBuildId, deploymentOptions, readVersioningSettings } from '../../worker/versioning';
import { WORKER_SETTING_NAMES } from '../../worker/worker-settings';

describe('worker versioning settings', () => {
  it('default: versioned, the task queue as the deployment, the build from the code, promoting the first build', () => {
    expect(readVersioningSettings({}, 'agents')).toEqual({
      deployment: 'agents',
      buildId: undefined,
      promote: 'first',
    });
    expect(readVersioningSettings({ WORKER_VERSIONING: '', WORKER_PROMOTE: '' }, 'agents')?.promote).toBe('first');
    expect(
      readVersioningSettings(
        { WORKER_DEPLOYMENT: 'agents-prod', WORKER_BUILD_ID: 'release-42.1', WORKER_PROMOTE: 'never' },
        'agents',
      ),
    ).toEqual({ deployment: 'agents-prod', buildId: 'release-42.1', promote: 'never' });
  });

  it('WORKER_VERSIONING=off: unversioned, no deployment options', () => {
    expect(readVersioningSettings({ WORKER_VERSIONING: 'off' }, 'agents')).toBeUndefined();
    expect(deploymentOptions(undefined)).toEqual({});
    expect(deploymentOptions({ deployment: 'agents', buildId: 'b1' })).toEqual({
      workerDeploymentOptions: {
        useWorkerVersioning: true,
        version: { deploymentName: 'agents', buildId: 'b1' },
        defaultVersioningBehavior: 'PINNED',
      },
    });
  });

  it('refuses bad values, naming the variable', () => {
    expect(() => readVersioningSettings({ WORKER_VERSIONING: 'maybe' }, 'q')).toThrow(
      /WORKER_VERSIONING must be true or false/,
    );
    expect(() => readVersioningSettings({ WORKER_PROMOTE: 'sometimes' }, 'q')).toThrow(
      /WORKER_PROMOTE must be one of first, always, never/,
    );
    expect(() => readVersioningSettings({ WORKER_BUILD_ID: 'has space' }, 'q')).toThrow(/WORKER_BUILD_ID must be/);
    expect(() => readVersioningSettings({ WORKER_DEPLOYMENT: 'a.b' }, 'q')).toThrow(/WORKER_DEPLOYMENT must be/);
  });

  it('a build id is the package version and the first 12 digits of the code hash', () => {
    expect(defaultBuildId('0123456789abcdef0123')).toMatch(/^\d+\.\d+\.\d+-0123456789ab$/);
  });

  it('are among the worker settings the compose files must pass', () => {
    for (const name of ['WORKER_VERSIONING', 'WORKER_DEPLOYMENT', 'WORKER_BUILD_ID', 'WORKER_PROMOTE'])
      expect(WORKER_SETTING_NAMES).toContain(name);
  });
});

describe('agent deploy status', () => {
  it('lists the builds, newest first, with open conversations and whether their workers may stop', () => {
    const text = formatStatus({
      deployment: 'agents',
      current: 'b2',
      ramping: { buildId: 'b3', percentage: 10 },
      builds: [
        { buildId: 'b3', state: 'ramping', open: 1, canStop: false, why: 'a share of new conversations start on it' },
        { buildId: 'b2', state: 'current', open: 4, canStop: false, why: 'new conversations start on it' },
        { buildId: 'b1', state: 'draining', open: 0, canStop: true, why: 'no open conversation runs on it' },
      ],
    });
    expect(text.split('\n')).toEqual([
      'deployment agents: new conversations start on b2, ramping b3 at 10%',
      'build  state     open  stop its workers?',
      'b3     ramping      1  no: a share of new conversations start on it',
      'b2     current      4  no: new conversations start on it',
      'b1     draining     0  yes: no open conversation runs on it',
    ]);
  });

  it('says when no versioned worker has polled', () => {
    expect(formatStatus({ deployment: 'agents', builds: [] })).toMatch(
      /^deployment agents: no versioned worker has polled yet/,
    );
  });
});
