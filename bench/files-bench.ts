// Files and big results (issue 27), on this run's server with real workers and the zero-latency scripted model:
// (1) bytes per turn when every turn's tool answers ~3 MB, with the claim check (the result kept whole in the blob
// store, history holding its reference and a preview, the row read with ReadFile) and without (the result capped at
// MAX_TOOL_RESULT_CHARS, the answer cut); (2) a ~5 MB PDF uploaded through the API and the turn carrying it to the
// reply, against the same turn without it, and what describing the file costs the store. Tables: report/files-report.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BenchContext, BenchPart } from './context';
import { bigResultTurns } from './files-turns';
import { pdfUploads } from './files-upload';
import type { FilesOptions } from './options';
import { renderFilesBench } from './report/files-report';

export async function runFilesBench(ctx: BenchContext, opts: FilesOptions): Promise<BenchPart> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-files-'));
  try {
    process.stderr.write(
      `bench (files): ${opts.turns} turns with a ~3 MB tool result, with the claim check and without\n`,
    );
    const claim = await bigResultTurns(ctx, dir, 'claim', opts.turns);
    const cut = await bigResultTurns(ctx, dir, 'cut', opts.turns);
    const uploads = await pdfUploads(ctx, dir, opts);
    return renderFilesBench(opts, { claim, cut }, uploads);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
