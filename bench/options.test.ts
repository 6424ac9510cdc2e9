// The bench's command line: parts by name in run order, --quick's counts, and where each run's results go.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FULL, PARTS, QUICK, readPlan, RETIRED_PARTS } from './options';
import { resultsFile } from './report/run-report';

describe('readPlan', () => {
  it('runs every part, in order, with the full counts when nothing is named', () => {
    expect(readPlan([])).toEqual({ quick: false, parts: [...PARTS], counts: FULL });
  });

  it('runs the named parts in run order, with the quick counts after --quick', () => {
    expect(readPlan(['scale', '--quick', 'api'])).toEqual({ quick: true, parts: ['api', 'scale'], counts: QUICK });
  });

  it('refuses anything else, naming it and the parts', () => {
    expect(() => readPlan(['--iterations=5'])).toThrow(/unknown argument --iterations=5\. Usage: .*one-model-wait/);
  });

  it('says where a retired part went: its figures in the README, its code in git', () => {
    expect(() => readPlan(['run-view'])).toThrow(
      /^run-view: no longer a part; the figures it measured are in bench\/README\.md/,
    );
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

describe('bench/README.md', () => {
  it('has a row for each part in its parts table, and none for a part that is not one', () => {
    const readme = readFileSync(path.join(__dirname, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('## The parts'), readme.indexOf('## Figures as recorded'));
    const rows = [...table.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]);
    expect(rows).toEqual([...PARTS]);
    const retired = Object.keys(RETIRED_PARTS);
    expect(retired.filter((p) => table.includes(`\`${p}\``))).toEqual(retired);
  });
});
