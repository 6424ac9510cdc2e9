// Images: what they are and their size in pixels, from their headers (PNG IHDR, JPEG SOF, GIF screen, WebP VP8/VP8L/
// VP8X), without decoding them. A vision-capable model gets the bytes elsewhere; a reader describes ("image, 12 KB,
// 640×480, PNG") for history and for models that cannot see.
import { formatBytes } from '../core/blobs';
import { TYPES } from './detect-type';
import type { FileReader } from './reader';
import { acceptWindow } from './window';

export interface ImageSize {
  width: number;
  height: number;
}

const NAMES: Record<string, string> = {
  [TYPES.png]: 'PNG',
  [TYPES.jpeg]: 'JPEG',
  [TYPES.gif]: 'GIF',
  [TYPES.webp]: 'WebP',
};

/** Width and height from the header, or undefined when it is cut short or not one of the four kinds. */
export function imageSize(bytes: Uint8Array): ImageSize | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const has = (n: number) => bytes.length >= n;
  const ascii = (at: number, text: string) => [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));
  if (bytes[0] === 0x89 && ascii(1, 'PNG') && has(24) && ascii(12, 'IHDR')) {
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  if ((ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) && has(10)) {
    return { width: view.getUint16(6, true), height: view.getUint16(8, true) };
  }
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP') && has(30)) return webpSize(bytes, view);
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes, view);
  return undefined;
}

function webpSize(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  const chunk = String.fromCharCode(...bytes.subarray(12, 16));
  if (chunk === 'VP8 ' && bytes[23] === 0x9d && bytes[24] === 0x01 && bytes[25] === 0x2a) {
    return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  }
  if (chunk === 'VP8L' && bytes[20] === 0x2f) {
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') {
    const u24 = (at: number) => bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16);
    return { width: u24(24) + 1, height: u24(27) + 1 };
  }
  return undefined;
}

/** The first start-of-frame segment's dimensions, walking the segments from the start. */
function jpegSize(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return undefined;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
    if (isFrame) return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
    at += 2 + view.getUint16(at + 2);
  }
  return undefined;
}

/** "image, 12.3 KB, 640×480, PNG". */
export function describeImage(bytes: Uint8Array, type: string, size = imageSize(bytes)): string {
  const pixels = size ? `${size.width}×${size.height}` : 'size in pixels unknown';
  return `image, ${formatBytes(bytes.length)}, ${pixels}, ${NAMES[type] ?? type}`;
}

/** Which of the four kinds the header says (the reader is not told the type it was picked for). */
function typeOf(bytes: Uint8Array): string {
  if (bytes[0] === 0x89) return TYPES.png;
  if (bytes[0] === 0xff) return TYPES.jpeg;
  if (bytes[0] === 0x47) return TYPES.gif;
  return TYPES.webp;
}

export const imageReader: FileReader = {
  types: [TYPES.png, TYPES.jpeg, TYPES.gif, TYPES.webp],
  async describe(bytes) {
    const size = imageSize(bytes);
    return { preview: describeImage(bytes, typeOf(bytes), size), facts: size ? { ...size } : {} };
  },
  async read(bytes, window) {
    acceptWindow(window, 'an image (shown whole to a model that sees images)', []);
    return { text: describeImage(bytes, typeOf(bytes)), more: false };
  },
};
