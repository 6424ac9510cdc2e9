// The files part's tables: bytes per turn with a ~3 MB tool result, with the claim check and without; then a 5 MB
// PDF's upload, the turn carrying it against the same turn without, and describing it.
import type { BigResultRun, BigResultTurn } from '../files-turns';
import type { TimedTurn, UploadResults, UploadRun } from '../files-upload';
import type { FilesOptions } from '../options';
import { formatMs, ratio, round, roundSummary, summarize, table, type Summary } from '../stats';
import { judge } from '../verdict';

const bytes = (n: number | undefined) => (n === undefined ? '—' : n.toLocaleString('en-US'));
const MB = (n: number) => `${(n / 1e6).toFixed(2)} MB`;

export function renderFilesBench(
  opts: FilesOptions,
  big: { claim: BigResultRun; cut: BigResultRun },
  uploads: UploadResults,
) {
  const text = ['', ...bytesPerTurn(opts, big), '', ...uploadTables(opts, uploads)].join('\n');
  const turnJson = (run: BigResultRun) => ({
    turns: run.turns.map((t) => ({ ...t, ms: round(t.ms, 1) })),
    historyTotalBytes: run.historyTotalBytes,
    resultBytes: run.resultBytes,
    turnMs: roundSummary(summarize(run.turns.map((t) => t.ms)), 1),
    lastVsFirstHistory: round(last(run).historyBytes / run.turns[0]!.historyBytes, 3),
    lastVsFirstRequest: round(last(run).requestBytes / run.turns[0]!.requestBytes, 3),
  });
  const ms = (xs: number[]) => ({
    n: xs.length,
    ...roundSummary(summarize(xs), 1),
    samples: xs.map((x) => round(x, 1)),
  });
  const turns = (runs: UploadRun[], key: 'attached' | 'plain' | 'readPage') => ({
    ms: ms(runs.map((r) => r[key].ms)),
    historyBytes: runs.map((r) => r[key].historyBytes),
    requestBytes: runs.map((r) => r[key].requestBytes),
  });
  const json = {
    benchmark: 'Files and big results: bytes per turn with and without the claim check; a 5 MB PDF upload to reply',
    options: opts,
    bytesPerTurn: {
      tool: 'Report (native, defined in the bench): 42,000 rows, ~3 MB of JSON, new content each turn',
      claimCheck: turnJson(big.claim),
      noClaimCheck: {
        ...turnJson(big.cut),
        how: 'CLAIM_CHECK_CHARS above the result: capped at MAX_TOOL_RESULT_CHARS',
      },
    },
    pdfUpload: {
      via: 'POST /api/files (raw body) and POST /api/conversations/{id}/messages with files, API in this process',
      pdf: { ...uploads.pdf, makeMs: round(uploads.pdf.makeMs, 0) },
      describeFileMs: ms(uploads.runs.map((r) => r.describeMs)),
      storePutMs: ms(uploads.runs.map((r) => r.putMs)),
      uploadMs: ms(uploads.runs.map((r) => r.uploadMs)),
      uploadToFirstReplyMs: ms(uploads.runs.map((r) => r.uploadMs + r.attached.ms)),
      attachedTurn: turns(uploads.runs, 'attached'),
      plainTurn: turns(uploads.runs, 'plain'),
      readPageTurn: turns(uploads.runs, 'readPage'),
      warmup: uploads.warmup,
    },
  };
  return { text, json };
}

const last = (run: BigResultRun) => run.turns[run.turns.length - 1]!;

function bytesPerTurn(opts: FilesOptions, big: { claim: BigResultRun; cut: BigResultRun }): string[] {
  const n = opts.turns;
  const checkpoints = [1, 2, 5, 10, n].filter((t, i, all) => t <= n && all.indexOf(t) === i);
  const at = (run: BigResultRun, t: number): BigResultTurn | undefined => run.turns[t - 1];
  const vs = (run: BigResultRun, key: 'historyBytes' | 'requestBytes') => ratio(last(run)[key], run.turns[0]![key]);
  // A model request carries the whole transcript: what each turn leaves in it is what every later request pays again.
  const slope = (run: BigResultRun, key: 'historyBytes' | 'requestBytes') => {
    const d = (last(run)[key] - run.turns[0]![key]) / Math.max(1, run.turns.length - 1);
    return `${d >= 0 ? '+' : '−'}${bytes(Math.round(Math.abs(d)))}`;
  };
  const answers = (run: BigResultRun) => {
    const count = (o: BigResultTurn['outcome']) => run.turns.filter((t) => t.outcome === o).length;
    return [
      count('found') ? `found ${count('found')}/${run.turns.length}` : '',
      count('cut') ? `cut ${count('cut')}/${run.turns.length}` : '',
      count('wrong') ? `WRONG ${count('wrong')}/${run.turns.length}` : '',
    ]
      .filter(Boolean)
      .join(', ');
  };
  const turnMs = (run: BigResultRun) => summarize(run.turns.map((t) => t.ms));
  const claimRatio = last(big.claim).historyBytes / big.claim.turns[0]!.historyBytes;
  return [
    `Bytes per turn (issue 27), one conversation per row of ${n} turns, each: the user asks, the model calls Report (a native`,
    `tool answering ~3 MB of JSON, 42,000 rows, new content each turn), then with the claim check reads row ${(41_999).toLocaleString('en-US')} by JSONPath`,
    `with ReadFile and answers. Without it (CLAIM_CHECK_CHARS above the result: keepOutcome's path with no store) the result`,
    `is capped at MAX_TOOL_RESULT_CHARS (50,000) and the model answers from that preview: the row asked for is cut.`,
    `History bytes: the server's historySizeBytes after the turn minus before. Request bytes: every model call of the turn,`,
    `the prompt and tools the AI SDK hands the model, as JSON (each carries the transcript so far, so they grow by what`,
    `each turn leaves in it: a preview and a ReadFile answer with the claim check, 50,000 characters without).`,
    table([
      ['turn', 'history bytes: claim check', 'no claim check', 'model request bytes: claim check', 'no claim check'],
      ...checkpoints.map((t) => [
        String(t),
        bytes(at(big.claim, t)?.historyBytes),
        bytes(at(big.cut, t)?.historyBytes),
        bytes(at(big.claim, t)?.requestBytes),
        bytes(at(big.cut, t)?.requestBytes),
      ]),
      [
        `added per turn, turn 1 → ${n}`,
        slope(big.claim, 'historyBytes'),
        slope(big.cut, 'historyBytes'),
        slope(big.claim, 'requestBytes'),
        slope(big.cut, 'requestBytes'),
      ],
      [
        `turn ${n} vs turn 1`,
        vs(big.claim, 'historyBytes'),
        vs(big.cut, 'historyBytes'),
        vs(big.claim, 'requestBytes'),
        vs(big.cut, 'requestBytes'),
      ],
    ]),
    table([
      ['', 'model calls per turn', 'turn p50 ms', 'p95 ms', 'the answer', 'history after'],
      ...(
        [
          ['claim check (ReadFile by JSONPath)', big.claim],
          ['no claim check (capped at 50,000 chars)', big.cut],
        ] as const
      ).map(([name, run]) => [
        name,
        String(run.turns[0]!.requests),
        formatMs(turnMs(run).p50),
        formatMs(turnMs(run).p95),
        answers(run),
        MB(run.historyTotalBytes),
      ]),
    ]),
    `  Target: history bytes per turn at turn ${n} ≤ 1.5× turn 1 with the claim check: ${claimRatio.toFixed(2)}× ` +
      `(${judge(`files: history bytes per turn at turn ${n} / turn 1, claim check`, claimRatio, 1.5, { unit: '×' })}).`,
    `  The conversation's result when it ends (its transcript, one payload): ${MB(big.claim.resultBytes)} with the claim ` +
      `check, ${MB(big.cut.resultBytes)} without (the SDK warns past 512 KB; Temporal refuses a payload past 2 MB).`,
  ];
}

function uploadTables(opts: FilesOptions, up: UploadResults): string[] {
  const row = (name: string, xs: number[], s: Summary = summarize(xs)) => [
    name,
    String(s.n),
    formatMs(s.p50),
    formatMs(s.p95),
    formatMs(s.max),
  ];
  const p50 = (runs: UploadRun[], pick: (t: UploadRun) => TimedTurn, key: 'historyBytes' | 'requestBytes') =>
    bytes(summarize(runs.map((r) => pick(r)[key])).p50);
  const runs = up.runs;
  const attached = summarize(runs.map((r) => r.attached.ms));
  const plain = summarize(runs.map((r) => r.plain.ms));
  return [
    `A ${MB(up.pdf.bytes)} PDF (testkit/pdf.ts, made in ${formatMs(up.pdf.makeMs)} ms: ${up.pdf.pages - 1} text pages and one page with a`,
    `1,300×1,300 image of noise), a new copy each time (new bytes). API and worker in this process; ${opts.uploadWarmup}`,
    `warm-up run(s) discarded; each run a new conversation: upload (POST /api/files, the raw body), then the turn with`,
    `the file (POST …/messages, files: [id], wait=true; the model answers from the message, which lists the file with its`,
    `preview) and the same turn without it, in alternating order, then a turn whose model reads page 1 with ReadFile.`,
    table([
      ['', 'n', 'p50 ms', 'p95 ms', 'max ms'],
      row(
        'describeFile alone (type, pages, preview: pdf.js in a worker thread)',
        runs.map((r) => r.describeMs),
      ),
      row(
        'the store’s put in this process (describe + write)',
        runs.map((r) => r.putMs),
      ),
      row(
        'POST /api/files (5 MB over HTTP, then put)',
        runs.map((r) => r.uploadMs),
      ),
      row('turn with the PDF attached', [], attached),
      row('the same turn without it', [], plain),
      row(
        'upload → first reply (upload + turn with it)',
        runs.map((r) => r.uploadMs + r.attached.ms),
      ),
      row(
        'turn whose model reads page 1 (ReadFile: the PDF parsed)',
        runs.map((r) => r.readPage.ms),
      ),
    ]),
    `  The attachment's cost on the turn: ${ratio(attached.p50, plain.p50)} at p50 (${formatMs(attached.p50 - plain.p50)} ms); ` +
      `history bytes added p50 ${p50(runs, (r) => r.attached, 'historyBytes')} with it vs ${p50(runs, (r) => r.plain, 'historyBytes')} ` +
      `without; model request bytes ${p50(runs, (r) => r.attached, 'requestBytes')} vs ${p50(runs, (r) => r.plain, 'requestBytes')}.`,
    `  describeFile found: ${up.pdf.type}, ${up.pdf.pages} pages, preview "${up.pdf.preview.replace(/\n/g, ' ⏎ ').slice(0, 90)}…"`,
  ];
}
