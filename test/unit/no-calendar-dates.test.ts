// No test and no demo data may depend on today's date (issue 37: a test that expected PTO to accrue before a
// December date failed on every machine from 1 December). Dates in tests and in the demo are counted from a clock
// (core/days.ts, testkit/days.ts, the demo day of tools/mock-data); this guard finds calendar dates written out in
// the files that hold tests and demo data. Recorded material keeps the dates it was recorded with.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { PROJECT_ROOT } from '../../tools/project-root';

/** Where tests and demo data live: every tracked file below these, and these files. */
const SCOPE = ['test', 'testkit', 'evals', 'examples', 'tools', 'goals', 'config', 'docs', 'README.md'];

/** Recorded material that must keep the dates it was recorded with, each with why. */
const RECORDED: [prefix: string, why: string][] = [
  ['test/histories/', 'workflow histories recorded from real runs: replay needs them byte for byte'],
  ['test/fixtures/wire/', "providers' streams recorded as they were sent"],
  ['docs/screenshots/', 'pictures'],
  ['test/unit/run-view-fold.test.ts', 'its expectations quote the prompts of a recorded history (test/histories/)'],
];

/** YYYY-MM-DD, alone or starting a timestamp. */
const CALENDAR_DATE = /(?<![\w-])(?:19|20)\d{2}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?![\d-])/g;

/** Dates that name a version, not a day: the MCP protocol's (from the SDK's own list). */
const NOT_A_DAY = new Set<string>(SUPPORTED_PROTOCOL_VERSIONS);

export function calendarDates(text: string): string[] {
  return [...text.matchAll(CALENDAR_DATE)].map((m) => m[0]).filter((d) => !NOT_A_DAY.has(d));
}

function filesInScope(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--', ...SCOPE], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  return listed
    .split('\0')
    .filter(Boolean)
    .filter((f) => !RECORDED.some(([prefix]) => f.startsWith(prefix)));
}

describe('calendar dates in tests and demo data', () => {
  it('finds none outside recorded material: dates are counted from a clock', () => {
    const found: string[] = [];
    for (const file of filesInScope()) {
      let text: string;
      try {
        text = readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
      } catch {
        continue; // deleted in the work tree
      }
      text.split('\n').forEach((line, i) => {
        for (const date of calendarDates(line)) found.push(`${file}:${i + 1}: ${date}`);
      });
    }
    expect(found).toEqual([]);
  });

  it('catches a date planted in a test, and not a protocol version', () => {
    const planted = ['book', ['2026', '12', '21'].join('-'), 'for ada@example.com'].join(' ');
    expect(calendarDates(planted)).toEqual([['2026', '12', '21'].join('-')]);
    expect(calendarDates(`createdAt: '${['2026', '01', '02'].join('-')}T03:04:05.000Z'`)).toHaveLength(1);
    expect(calendarDates(`protocolVersion: '${SUPPORTED_PROTOCOL_VERSIONS[0]}'`)).toEqual([]);
  });
});
