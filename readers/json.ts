// JSON: pretty-printed, read a window of characters at a time, or queried with a JSONPath (json-path.ts, which runs
// nothing from the query) whose matches are then windowed the same way. Facts: the pretty text's length; the preview
// starts with the shape (an object's keys, an array's length).
import { PREVIEW_CHARS } from '../core/blobs';
import { TYPES } from './detect-type';
import { queryJson } from './json-path';
import { FileRefusal, type FileReader } from './reader';
import { textOf } from './text';
import { acceptWindow, charWindow, count } from './window';

function parse(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(textOf(bytes));
  } catch (error) {
    if (error instanceof FileRefusal) throw error;
    throw new FileRefusal(`malformed JSON: ${(error as Error).message}`);
  }
}

function pretty(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? 'null';
  } catch (error) {
    if (error instanceof RangeError) throw new FileRefusal('JSON nested too deeply to print');
    throw error;
  }
}

/** "an object with 3 keys: id, name, items" / "an array of 1,200 items". */
function shape(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${count(value.length)} item${value.length === 1 ? '' : 's'}`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    const shown = keys.slice(0, 30).join(', ') + (keys.length > 30 ? ', …' : '');
    return `an object with ${count(keys.length)} key${keys.length === 1 ? '' : 's'}${keys.length ? `: ${shown}` : ''}`;
  }
  return `a single ${value === null ? 'null' : typeof value}`;
}

export const jsonReader: FileReader = {
  types: [TYPES.json],
  async describe(bytes) {
    const value = parse(bytes);
    const text = pretty(value);
    const head = `JSON, ${shape(value)}; ${count(text.length)} characters pretty-printed\n`;
    return {
      preview: head + charWindow(text, {}, Math.max(0, PREVIEW_CHARS - head.length)).text,
      facts: { chars: text.length },
    };
  },
  async read(bytes, window, maxChars) {
    acceptWindow(window, 'JSON', ['characters', 'jsonPath']);
    const value = parse(bytes);
    if (window.jsonPath === undefined) {
      const cut = charWindow(pretty(value), window, maxChars, 'the JSON');
      return { text: cut.text, more: cut.more, ...(cut.more ? { next: { offset: cut.nextOffset } } : {}) };
    }
    const matches = queryJson(value, window.jsonPath);
    const cut = charWindow(pretty(matches), window, maxChars, 'the matches');
    return {
      text: cut.text,
      matched: matches.length,
      more: cut.more,
      ...(cut.more ? { next: { jsonPath: window.jsonPath, offset: cut.nextOffset } } : {}),
    };
  },
};
