// The lists in the docs that name the workflow's messages and the worker's metrics, checked against the code they
// describe: a message or a metric added without its line in the docs fails here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as messages from '../../core/messages';
import { METRICS } from '../../core/metric-names';

const doc = (name: string) => readFileSync(path.join(__dirname, '..', '..', 'docs', name), 'utf8');

/** Every signal, update and query core/messages.ts defines, by the name clients use. */
const names = (Object.values(messages) as unknown[])
  .filter((v): v is { name: string; type: string } => typeof v === 'object' && v !== null && 'type' in v && 'name' in v)
  .filter((v) => ['signal', 'update', 'query'].includes(v.type))
  .map((v) => v.name);

describe('the docs name what the code defines', () => {
  it('docs/api.md and docs/architecture.md list every signal, update and query a client may use', () => {
    expect(names.length).toBeGreaterThan(10);
    for (const file of ['api.md', 'architecture.md']) {
      const text = doc(file);
      expect({ file, missing: names.filter((n) => n !== 'delegateReport' && !text.includes(`\`${n}\``)) }).toEqual({
        file,
        missing: [],
      });
    }
  });

  it("docs/deploying.md's metrics table has every worker metric", () => {
    const text = doc('deploying.md');
    expect(Object.values(METRICS).filter((m) => !text.includes(`\`${m}`))).toEqual([]);
  });
});
