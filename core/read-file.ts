// ReadFile: a window of a file the conversation holds, read by an activity from the blob store (the bytes never enter
// history; the window read is the call's result, bounded). An id the conversation was never given is refused in the
// workflow. Offered only while the conversation holds a file (workflows/decider/tool-offer.ts).
import type { BlobWindow } from './blobs';
import { FailureTypes } from './failure-types';
import type { ToolSpec } from './types';
import { builtinRun } from './builtin-run';

/** Reads a window of a file the conversation holds (an attachment, a result too big for history); offered while it
 * holds any. */
export const READ_FILE = 'ReadFile';

/** ReadFile's spec: a window by characters, pages, rows (of a sheet), or a query (JSONPath, a column filter). */
export const READ_FILE_SPEC: ToolSpec = {
  name: READ_FILE,
  description:
    'Read part of a file of this conversation (one the user attached, or a tool result too big to show whole): by ' +
    'pages (PDF), rows (CSV, spreadsheets; filter rows with `where`), characters (text, JSON), or a JSONPath into ' +
    'JSON. Each answer says whether there is more and the window to ask for next.',
  category: 'files',
  inputSchema: {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'The file id (64 hex characters), as given with the file' },
      pages: {
        type: 'object',
        properties: { from: { type: 'integer', minimum: 1 }, to: { type: 'integer', minimum: 1 } },
        required: ['from'],
        additionalProperties: false,
        description: 'PDF pages, 1-based, inclusive',
      },
      rows: {
        type: 'object',
        properties: { from: { type: 'integer', minimum: 0 }, count: { type: 'integer', minimum: 1, maximum: 500 } },
        required: ['from', 'count'],
        additionalProperties: false,
        description: 'Table rows, 0-based, after the header (after the filter, with `where`)',
      },
      sheet: { type: 'string', description: 'A spreadsheet sheet by name (default: the first)' },
      where: {
        type: 'object',
        properties: {
          column: { type: 'string' },
          op: { type: 'string', enum: ['=', '!=', '<', '<=', '>', '>=', 'contains'] },
          value: { type: ['string', 'number'] },
        },
        required: ['column', 'op', 'value'],
        additionalProperties: false,
        description: 'Only the rows whose column compares so (numbers as numbers)',
      },
      jsonPath: { type: 'string', description: 'A JSONPath into JSON, e.g. $.items[0:10].name' },
      offset: { type: 'integer', minimum: 0, description: 'Text: the first character to read' },
      length: { type: 'integer', minimum: 1, maximum: 20000, description: 'Text: how many characters' },
    },
    required: ['id'],
    additionalProperties: false,
  },
  approval: 'never',
  readOnly: true,
  kind: 'builtin',
};

export const readFile = builtinRun({
  spec: READ_FILE_SPEC,
  activity: 'readFile',
  // Reading changes nothing, so any failure but a refusal is tried again.
  options: {
    startToCloseTimeout: '1 minute',
    retry: { initialInterval: '1 second', maximumAttempts: 3, nonRetryableErrorTypes: [FailureTypes.Misconfigured] },
  },
  patch: 'files',
  refuse: (call, { files }) => {
    const id = String(call.args.id);
    if (files.get(id)) return undefined;
    const held = files.list().map((f) => `${f.id} (${f.name})`);
    return `No file ${id} in this conversation; its files: ${held.join(', ') || 'none'}.`;
  },
  input: (call, { files }) => {
    const { id, ...window } = call.args;
    // `refuse` let the call through: the conversation holds that file.
    return { ref: files.get(String(id))!, window: window as BlobWindow };
  },
});
