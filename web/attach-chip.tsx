// A stored file as the transcript shows it: a chip with an icon by type, its name, size and what its reader found
// (pages, rows), linking to its bytes (GET /api/files/{id}/content). With an API key the link fetches them with the
// key, as a plain link cannot send it.
import type { MouseEvent, ReactNode } from 'react';
import { apiKey, downloadFile, fileContentPath, messageOf } from './api';
import { describeBlob, formatBytes, type BlobRef } from '../core/blobs';

/** A link that opens a stored file whole. */
export function FileLink({ file, children, className }: { file: BlobRef; children: ReactNode; className?: string }) {
  function open(e: MouseEvent) {
    if (!apiKey.get()) return; // the plain link works without a key
    e.preventDefault();
    downloadFile(file).catch((err) => window.alert(`Cannot open ${file.name}: ${messageOf(err)}`));
  }
  return (
    <a
      className={className}
      href={fileContentPath(file.id)}
      download={file.name}
      onClick={open}
      data-testid="file-link"
    >
      {children}
    </a>
  );
}

/** One attached file: icon, name, size and pages or rows. */
export function FileChip({ file }: { file: BlobRef }) {
  const facts = factsOf(file);
  return (
    <FileLink file={file} className="file-chip">
      <span className={`file-icon file-${kindOf(file.type).toLowerCase()}`} aria-hidden="true">
        {kindOf(file.type)}
      </span>
      <span className="file-name" data-testid="file-name">
        {file.name}
      </span>
      <span className="file-facts" data-testid="file-facts">
        {[formatBytes(file.size), ...facts].join(' · ')}
      </span>
      <span className="sr-only"> ({file.type}), open</span>
    </FileLink>
  );
}

/** The files a user's message carries. */
export function FileChips({ files }: { files: BlobRef[] }) {
  return (
    <ul className="file-chips" aria-label="Attached files" data-testid="file-chips">
      {files.map((f) => (
        <li key={f.id} data-testid="file-chip" data-type={f.type}>
          <FileChip file={f} />
        </li>
      ))}
    </ul>
  );
}

/** A tool result too big for history, kept whole: what it is, and a link to open it whole. */
export function StoredResult({ file }: { file: BlobRef }) {
  return (
    <p className="stored-result" data-testid="stored-result">
      kept as a file: <FileLink file={file}>{describeBlob(file)}</FileLink>
    </p>
  );
}

function factsOf(file: BlobRef): string[] {
  const f = file.facts ?? {};
  const out: string[] = [];
  if (f.pages) out.push(`${f.pages} page${f.pages === 1 ? '' : 's'}`);
  if (f.rows !== undefined) out.push(`${f.rows.toLocaleString('en-US')} row${f.rows === 1 ? '' : 's'}`);
  if (f.sheets?.length) out.push(`${f.sheets.length} sheet${f.sheets.length === 1 ? '' : 's'}`);
  if (f.width && f.height) out.push(`${f.width}×${f.height}`);
  return out;
}

/** A short badge for the type found in the content. */
function kindOf(type: string): string {
  if (type === 'application/pdf') return 'PDF';
  if (type === 'text/csv') return 'CSV';
  if (type === 'text/tab-separated-values') return 'TSV';
  if (type.includes('spreadsheetml')) return 'XLSX';
  if (type === 'application/json') return 'JSON';
  if (type === 'text/markdown') return 'MD';
  if (type.startsWith('image/')) return 'IMG';
  if (type.startsWith('text/')) return 'TXT';
  return 'FILE';
}
