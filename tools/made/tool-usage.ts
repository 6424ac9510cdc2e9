// What made tools are used for: one line per call appended to `<TOOLS_DIR>/.usage/<name>.jsonl` (appends of a short
// line are whole on a local file system, so workers sharing the folder do not garble each other's), read back as
// calls, errors, p50/p95 time and last use for `agent tools --stats`, the API and `agent tools prune`.
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { MadeToolUsage } from '../../core/made-tools';

interface UsageLine {
  at: string;
  v: number;
  ms: number;
  ok: boolean;
}

export class ToolUsage {
  constructor(private readonly folder: string) {}

  record(name: string, version: number, ms: number, ok: boolean, at = new Date()): void {
    const dir = path.join(this.folder, '.usage');
    mkdirSync(dir, { recursive: true });
    const line: UsageLine = { at: at.toISOString(), v: version, ms: Math.round(ms), ok };
    appendFileSync(path.join(dir, `${name}.jsonl`), `${JSON.stringify(line)}\n`);
  }

  of(name: string): MadeToolUsage {
    const lines = this.read(name);
    const times = lines.map((l) => l.ms).sort((a, b) => a - b);
    const at = (q: number) => (times.length ? times[Math.min(times.length - 1, Math.floor(q * times.length))]! : null);
    return {
      calls: lines.length,
      errors: lines.filter((l) => !l.ok).length,
      p50Ms: at(0.5),
      p95Ms: at(0.95),
      lastUsed: lines.reduce<string | null>((last, l) => (last === null || l.at > last ? l.at : last), null),
    };
  }

  private read(name: string): UsageLine[] {
    let text = '';
    try {
      text = readFileSync(path.join(this.folder, '.usage', `${name}.jsonl`), 'utf8');
    } catch {
      return [];
    }
    return text.split('\n').flatMap((line) => {
      try {
        return line ? [JSON.parse(line) as UsageLine] : [];
      } catch {
        return []; // a line cut short by a crash mid-append
      }
    });
  }
}
