// The bench's command line: parts by name in run order, --quick's counts, and where each run's results go.
import { FULL, PARTS, QUICK, readPlan } from './options';
import { resultsFile } from './report/run-report';

describe('readPlan', () => {
  it('runs every part, in order, with the full counts when nothing is named', () => {
    expect(readPlan([])).toEqual({ quick: false, parts: [...PARTS], counts: FULL });
  });

  it('runs the named parts in run order, with the quick counts after --quick', () => {
    expect(readPlan(['scale', '--quick', 'api'])).toEqual({ quick: true, parts: ['api', 'scale'], counts: QUICK });
  });

  it('refuses anything else, naming it and the parts', () => {
    expect(() => readPlan(['--iterations=5'])).toThrow(/unknown argument --iterations=5\. Usage: .*round-trips/);
  });
});

describe('resultsFile', () => {
  it('keeps a whole run, a quick one and a few parts apart', () => {
    const name = (quick: boolean, parts: (typeof PARTS)[number][]) => resultsFile(quick, parts).split('/').pop();
    expect(name(false, [...PARTS])).toBe('latest.json');
    expect(name(true, [...PARTS])).toBe('latest-quick.json');
    expect(name(false, ['api'])).toBe('latest-api.json');
    expect(name(true, ['api', 'scale'])).toBe('latest-quick-api+scale.json');
  });
});
