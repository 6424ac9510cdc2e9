// The round-trip table: per scenario and configuration, client and server-side p50 and where the server-side time
// goes; then, per scenario, the ratios of the server-side p50 (now against before either change, and against eager
// dispatch alone, which is what the CLI's dev server already did before this change).
import type { RoundTripOptions } from '../options';
import type { RoundTripConfig, RoundTripRow } from '../scenario';
import type { BenchServer } from '../server';
import { ratio, round, summarize, table } from '../stats';
import { turnBreakdown, type TurnBreakdown } from '../turn-breakdown';

interface Measured {
  row: RoundTripRow;
  client: number;
  p50: (pick: (t: TurnBreakdown) => number) => number;
}

function measured(row: RoundTripRow): Measured {
  const turns = row.sampler.closed.flatMap((c) => c.timedTurns.map(turnBreakdown));
  return {
    row,
    client: summarize(row.sampler.samples).p50,
    p50: (pick) => (turns.length ? summarize(turns.map(pick)).p50 : NaN),
  };
}

const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '—');

export function roundTripsText(
  rows: RoundTripRow[],
  opts: RoundTripOptions,
  server: BenchServer,
  off: BenchServer,
): string {
  const all = rows.map(measured);
  const body = table([
    [
      'scenario',
      'configuration',
      'client p50',
      'on server p50',
      'activity dispatch',
      'activities',
      'WFT on worker',
      'other',
    ],
    ...all.map((m) => [
      m.row.scenario,
      m.row.config.label,
      ms(m.client),
      ms(m.p50((t) => t.onServer)),
      ms(m.p50((t) => t.activityDispatch)),
      ms(m.p50((t) => t.activities)),
      ms(m.p50((t) => t.wftOnWorker)),
      ms(m.p50((t) => t.other)),
    ]),
  ]);
  const ratios = table([
    [
      'on server p50, ratio',
      'eager on / off (beat at start)',
      'no beat / beat (eager on): vs the current figure',
      'now / before',
    ],
    ...scenarios(all).map(([scenario, byKey]) => {
      const at = (k: RoundTripConfig['key']) => byKey.get(k)?.p50((t) => t.onServer) ?? NaN;
      return [
        scenario,
        ratio(at('eager'), at('before')),
        ratio(at('now'), at('eager')),
        ratio(at('now'), at('before')),
      ];
    }),
  ]);
  return [
    '',
    `Round trips per step: the same turns interleaved round-robin (${opts.warmup} warm-up, ${opts.iterations} timed per row) on this run's dev server ` +
      `(eager activity dispatch on) and a second one at ${off.info.address} with it off; "beat at start": a worker whose activities heartbeat as they start, as before issue 11.`,
    'ms, p50 over timed turns of per-turn sums from the history timeline; "activity dispatch": activity scheduled → started.',
    body,
    '',
    ratios,
    `"The current figure" is "eager on, beat at start": ${server.info.cliVersion ?? 'the CLI'} already turned eager dispatch on in its dev server ` +
      '(the flag now says so wherever we start one); the floor has no heartbeat, so its "now / before" is eager dispatch alone.',
  ].join('\n');
}

export function roundTripsJson(
  rows: RoundTripRow[],
  opts: RoundTripOptions,
  off: BenchServer,
): Record<string, unknown> {
  const all = rows.map(measured);
  return {
    benchmark: 'round trips per step: eager activity dispatch, heartbeat at activity start',
    options: opts,
    eagerOffServer: off.info,
    rows: all.map((m) => ({
      scenario: m.row.scenario,
      config: m.row.config,
      iterations: m.row.sampler.samples.length,
      clientP50Ms: round(m.client),
      onServerP50Ms: round(m.p50((t) => t.onServer)),
      activityDispatchP50Ms: round(m.p50((t) => t.activityDispatch)),
      activitiesP50Ms: round(m.p50((t) => t.activities)),
      wftOnWorkerP50Ms: round(m.p50((t) => t.wftOnWorker)),
      wftDispatchP50Ms: round(m.p50((t) => t.wftDispatch)),
      otherP50Ms: round(m.p50((t) => t.other)),
      samplesMs: m.row.sampler.samples.map((x) => round(x)),
    })),
    onServerRatios: Object.fromEntries(
      scenarios(all).map(([scenario, byKey]) => {
        const at = (k: RoundTripConfig['key']) => byKey.get(k)?.p50((t) => t.onServer) ?? NaN;
        const r = (x: number, y: number) => (Number.isFinite(x / y) ? round(x / y) : null);
        return [
          scenario,
          {
            eagerVsBefore: r(at('eager'), at('before')),
            nowVsEager: r(at('now'), at('eager')),
            nowVsBefore: r(at('now'), at('before')),
          },
        ];
      }),
    ),
  };
}

function scenarios(all: Measured[]): [string, Map<RoundTripConfig['key'], Measured>][] {
  const by = new Map<string, Map<RoundTripConfig['key'], Measured>>();
  for (const m of all) {
    const byKey = by.get(m.row.scenario) ?? new Map<RoundTripConfig['key'], Measured>();
    byKey.set(m.row.config.key, m);
    by.set(m.row.scenario, byKey);
  }
  return [...by];
}
