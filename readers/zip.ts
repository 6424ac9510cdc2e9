// A ZIP's central directory read by hand, so a zip bomb is refused before any library inflates it: the entries'
// declared sizes, their count and the compression ratio are checked against the limits, then each entry is inflated
// once with its declared size as a hard cap (node:zlib's maxOutputLength), so a header that lies is caught too.
import { inflateRawSync } from 'node:zlib';
import { formatBytes } from '../core/blobs';
import type { ReaderLimits } from './limits';
import { FileRefusal } from './reader';

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** Whether the bytes start as a ZIP (local file header, or an empty archive's end record). */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x50 &&
    bytes[1] === 0x4b &&
    [3, 5].includes(bytes[2]) &&
    bytes[3] === bytes[2] + 1
  );
}

/** The entries of the central directory; null when there is none to be found (not a whole ZIP). */
export function zipEntries(bytes: Uint8Array): ZipEntry[] | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const count = view.getUint16(end + 10, true);
  const offset = view.getUint32(end + 16, true);
  if (count === 0xffff || offset === 0xffffffff) {
    throw new FileRefusal('a ZIP64 archive (over 4 GB or 65,535 entries): too big to read here');
  }
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL) return null;
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const entry: ZipEntry = {
      name: Buffer.from(bytes.subarray(at + 46, at + 46 + nameLength)).toString('utf8'),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localHeaderOffset: view.getUint32(at + 42, true),
    };
    readZip64Extra(view, at + 46 + nameLength, extraLength, entry);
    entries.push(entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Sizes of 0xFFFFFFFF live in the ZIP64 extra field (id 1), in the order size, compressed size, offset. */
function readZip64Extra(view: DataView, start: number, length: number, entry: ZipEntry): void {
  const fields = (['size', 'compressedSize', 'localHeaderOffset'] as const).filter((k) => entry[k] === 0xffffffff);
  if (fields.length === 0) return;
  for (let at = start; at + 4 <= start + length;) {
    const id = view.getUint16(at, true);
    const size = view.getUint16(at + 2, true);
    if (id === 1) {
      fields.forEach((field, i) => {
        if (at + 4 + i * 8 + 8 <= view.byteLength) entry[field] = Number(view.getBigUint64(at + 4 + i * 8, true));
      });
      return;
    }
    at += 4 + size;
  }
}

/** An entry proven by guardZip, with where its stored bytes start (past its local header). */
export interface ProvenEntry extends ZipEntry {
  dataStart: number;
}

/**
 * Refuses an archive over the limits, from its central directory alone, then proves each declared size by inflating
 * the entry with that size as a cap. Returns the entries, each with where its data starts.
 */
export function guardZip(bytes: Uint8Array, limits: ReaderLimits): ProvenEntry[] {
  const entries = zipEntries(bytes);
  if (!entries) throw new FileRefusal('a malformed ZIP archive: its central directory is missing or damaged');
  if (entries.length > limits.maxZipEntries) {
    throw new FileRefusal(
      `a ZIP archive of ${entries.length.toLocaleString('en-US')} entries, over the limit of ${limits.maxZipEntries.toLocaleString('en-US')}`,
    );
  }
  const total = entries.reduce((sum, e) => sum + e.size, 0);
  const stored = entries.reduce((sum, e) => sum + e.compressedSize, 0);
  const limit = `${formatBytes(limits.maxUnzippedBytes)} (READER_MAX_UNZIPPED_MB)`;
  if (total > limits.maxUnzippedBytes) {
    throw new FileRefusal(
      `a zip bomb or too big: it would inflate to ${formatBytes(total)}, over the ${limit} a reader unpacks`,
    );
  }
  const ratio = (size: number, packed: number) => size / Math.max(packed, 1);
  const bomb = entries.find((e) => e.size > 1024 * 1024 && ratio(e.size, e.compressedSize) > limits.maxZipRatio);
  if (ratio(total, stored) > limits.maxZipRatio || bomb) {
    const [size, packed] = bomb ? [bomb.size, bomb.compressedSize] : [total, stored];
    throw new FileRefusal(
      `a zip bomb: ${formatBytes(packed)} would inflate to ${formatBytes(size)} (${Math.round(ratio(size, packed))}:1, over ${limits.maxZipRatio}:1)`,
    );
  }
  return entries.map((entry) => ({ ...entry, dataStart: proveSize(bytes, entry, limit) }));
}

/** Where the entry's data starts; throws when it does not inflate to the size it declares. */
function proveSize(bytes: Uint8Array, entry: ZipEntry, limit: string): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL) {
    throw new FileRefusal(`a malformed ZIP archive: the entry ${entry.name} is not where its directory says`);
  }
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const data = bytes.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.size)
      throw new FileRefusal(`a malformed ZIP archive: ${entry.name} has two sizes`);
    return start;
  }
  if (entry.method !== 8)
    throw new FileRefusal(`a ZIP archive compressed with method ${entry.method}, which I do not unpack`);
  let inflated: number;
  try {
    inflated = inflateRawSync(data, { maxOutputLength: Math.max(entry.size, 1) }).length;
  } catch (error) {
    if (error instanceof RangeError || (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new FileRefusal(
        `a zip bomb: ${entry.name} inflates past the ${formatBytes(entry.size)} it declares (${limit})`,
      );
    }
    throw new FileRefusal(`a malformed ZIP archive: ${entry.name} does not inflate (${(error as Error).message})`);
  }
  if (inflated !== entry.size) {
    throw new FileRefusal(
      `a malformed ZIP archive: ${entry.name} inflates to ${inflated} bytes, not the ${entry.size} it declares`,
    );
  }
  return start;
}
