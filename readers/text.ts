// Plain text and Markdown: read a window of characters at a time. The preview is the start of the text as it is.
import { PREVIEW_CHARS } from '../core/blobs';
import { TYPES, decodeText } from './detect-type';
import { FileRefusal, type FileReader } from './reader';
import { acceptWindow, charWindow } from './window';

/** The bytes as text (detect-type.ts's decodeText), or a refusal: what every text-based reader starts with. */
export function textOf(bytes: Uint8Array): string {
  const text = decodeText(bytes);
  if (text === null)
    throw new FileRefusal('not text: it is neither UTF-8 nor UTF-16 with a byte-order mark, or it has NULs');
  return text;
}

export const textReader: FileReader = {
  types: [TYPES.text, TYPES.markdown],
  async describe(bytes) {
    const text = textOf(bytes);
    return { preview: text.slice(0, PREVIEW_CHARS), facts: { chars: text.length } };
  },
  async read(bytes, window, maxChars) {
    acceptWindow(window, 'text', ['characters']);
    const text = textOf(bytes);
    const cut = charWindow(text, window, maxChars);
    return { text: cut.text, more: cut.more, ...(cut.more ? { next: { offset: cut.nextOffset } } : {}) };
  },
};
