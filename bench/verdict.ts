// One verdict for every target the bench measures against: each part asks `judge`, which records the verdict and
// answers the one word its text shows ('met' or 'missed'); the run lists every verdict at its end (`verdictTable`), and
// a full run that missed any exits non-zero (bench/run.ts). A --quick run records them too, for the smoke test's sake,
// but judges nothing: too few samples to hold a target to.
export interface Verdict {
  /** What is measured, against what, e.g. "tool step after an approval, local / before". */
  what: string;
  measured: number;
  /** The bar: at most this (or, with `atLeast`, at least). */
  bar: number;
  atLeast?: boolean;
  unit: string;
  met: boolean;
}

const recorded: Verdict[] = [];

/** `measured` against `bar` (at most, unless `atLeast`): recorded for the run's summary. A measure that could not be
 * taken (not finite) is recorded as missed and shown as '—'. */
export function judge(
  what: string,
  measured: number,
  bar: number,
  opts: { atLeast?: boolean; unit?: string } = {},
): 'met' | 'missed' | '—' {
  const met = Number.isFinite(measured) && (opts.atLeast ? measured >= bar : measured <= bar);
  recorded.push({ what, measured, bar, unit: opts.unit ?? '', met, ...(opts.atLeast ? { atLeast: true } : {}) });
  if (!Number.isFinite(measured)) return '—';
  return met ? 'met' : 'missed';
}

/** Every verdict recorded in this process, in the order the parts judged. */
export function verdicts(): readonly Verdict[] {
  return recorded;
}

/** The verdicts as the run's last table. */
export function verdictTable(quick: boolean): string {
  if (recorded.length === 0) return 'No targets judged.';
  const figure = (n: number, unit: string) => `${Number.isFinite(n) ? +n.toFixed(2) : '—'}${unit ? ` ${unit}` : ''}`;
  const rows = recorded.map((v) => [
    v.what,
    figure(v.measured, v.unit),
    `${v.atLeast ? '≥' : '≤'} ${figure(v.bar, v.unit)}`,
    quick ? '(quick)' : v.met ? 'met' : 'MISSED',
  ]);
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length), 6));
  const line = (r: string[]) => r.map((c, i) => (i < 3 ? c.padEnd(widths[i]!) : c)).join('  ');
  const missed = recorded.filter((v) => !v.met).length;
  return [
    `Targets (${recorded.length}): ${quick ? 'not judged in a --quick run (too few samples)' : missed ? `${missed} missed` : 'all met'}`,
    line(['target', 'measured', 'bar', 'verdict']),
    ...rows.map(line),
  ].join('\n');
}
