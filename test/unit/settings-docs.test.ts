// docs/deploying.md's settings table, said to list every setting, checked against the lists the processes read
// (WORKER_SETTING_NAMES, API_SETTING_NAMES): a setting added to the code and left out of the table fails here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { API_SETTING_NAMES } from '../../api/api-settings';
import { PROVIDER_VARIABLES } from '../../activities/llm/model';
import { WORKER_SETTING_NAMES } from '../../worker/worker-settings';

const deploying = readFileSync(path.join(__dirname, '..', '..', 'docs', 'deploying.md'), 'utf8');
const table = deploying.slice(
  deploying.indexOf('| group | variables |'),
  deploying.indexOf('\n\n', deploying.indexOf('| group | variables |')),
);

describe("docs/deploying.md's settings table", () => {
  it('names every setting the worker and the API read, and every provider key variable', () => {
    expect(table.length).toBeGreaterThan(1000);
    const names = [...new Set([...WORKER_SETTING_NAMES, ...API_SETTING_NAMES, ...PROVIDER_VARIABLES])];
    expect(names.filter((name) => !table.includes(`\`${name}\``)).sort()).toEqual([]);
  });
});
