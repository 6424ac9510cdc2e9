// The part of a reply still being written that renders as it will when whole. Markdown read a token at a time
// changes shape as it grows: a table's header row is a paragraph of pipes until its delimiter row arrives, and an
// open code fence swallows the rest of the reply. So, while text streams, a table shows once its header and delimiter
// rows are whole and then grows a whole row at a time, and an open code fence is closed for now.

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const TABLE_ROW = /^ {0,3}\|/;
const DELIMITER_ROW = /^ {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/** The text to render for a reply that is still streaming: `text` without what would render half-made. */
export function steadyMarkdown(text: string): string {
  const lines = text.split('\n');
  // The last line is incomplete unless the text ended with a newline (then it is the empty string).
  const partial = lines.pop() ?? '';
  let fence: string | null = null;
  for (const line of lines) {
    const marker = FENCE.exec(line)?.[1];
    if (!marker) continue;
    if (fence === null) fence = marker;
    else if (marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
  }
  // A line that may open or close a fence, or be a table row, is kept back until it is whole.
  const whole = partial === '' || /^ {0,3}[`~|]/.test(partial) ? lines : [...lines, partial];
  if (fence !== null) return [...whole, fence].join('\n');
  let start = whole.length;
  while (start > 0 && TABLE_ROW.test(whole[start - 1]!)) start--;
  const table = whole.slice(start);
  if (table.length === 0 || (table.length >= 2 && DELIMITER_ROW.test(table[1]!))) return whole.join('\n');
  // A table without its delimiter row yet: nothing of it shows.
  return whole.slice(0, start).join('\n');
}
