// Plain text and Markdown: read a window of characters at a time. The preview is the start of the text as it is.
import { PREVIEW_CHARS } from '../core/blobs';
import { TYPES, decodeText } from './detect-type';
import { FileRefusal, type FileReader } from './reader';
import { acceptWindow, charWindow } from './window';

/** The bytes as UTF-8 text, or a refusal: what every text-based reader starts with. */
export function textOf(bytes: Uint8Array): string {
  const text = decodeText(bytes);
  if (text === null) throw new FileRefusal('not UTF-8 text: it has bytes that are not UTF-8, or NULs');
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
