// The XLSX parse, as the source of a worker thread (worker-thread.ts: plain CommonJS, stoppable, its heap capped). A
// workbook is a ZIP of XML parts (ECMA-376): xl/workbook.xml names the sheets, its relationships say which part holds
// each, xl/sharedStrings.xml holds the strings cells point at, xl/styles.xml says which number formats are dates, and
// a sheet's part lists its non-empty rows and cells. Only what a cell shows is read: no library, nothing evaluated.
// The ZIP was checked by hand before (zip.ts: guardZip gives each entry with where its data starts): the worker
// inflates only the parts it reads, each capped at the size its directory declared.
//
// What a cell becomes: a number, a string, a boolean; an error as its code (#DIV/0!); a formula as the result Excel
// saved with it (null without one); rich text as its characters; a date (a number in a date format, or an ISO date
// cell) as its ISO day, or its ISO time when it is not midnight. Rows without a value are left out, as Excel shows
// them; a row's cells sit at their columns, holes null.
export const XLSX_WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const { inflateRawSync } = require('node:zlib');
const { bytes, input: { entries, sheet } } = workerData;
const zip = Buffer.from(bytes);

/** A part's text, or undefined when the workbook has no such part. Names are matched as stored, then ignoring case. */
function part(name) {
  const lower = name.toLowerCase();
  const entry = entries.find((e) => e.name === name) || entries.find((e) => e.name.toLowerCase() === lower);
  if (!entry) return undefined;
  const raw = zip.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
  const data = entry.method === 0 ? raw : inflateRawSync(raw, { maxOutputLength: Math.max(entry.size, 1) });
  return data.toString('utf8');
}

const ENTITIES = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/** XML's entities, then OOXML's _xHHHH_ escapes (_x005F_ is a literal underscore, so one pass left to right). */
function text(s) {
  return s
    .replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (m, e) =>
      e[0] !== '#' ? ENTITIES[e] ?? m
        : String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1))),
    )
    .replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
}

const PATTERNS = new Map();
/** Elements named name (any namespace prefix), each as [attributes, content]; content undefined when self-closed.
 * One pattern per name, made once: no caller walks two lists of the same name at once. */
function* elements(xml, name) {
  let re = PATTERNS.get(name);
  if (!re) {
    const prefix = '(?:[\\w.-]+:)?';
    re = new RegExp('<' + prefix + name + '(?=[\\s/>])([^>]*?)(?:/>|>([\\s\\S]*?)</' + prefix + name + '>)', 'g');
    PATTERNS.set(name, re);
  }
  re.lastIndex = 0;
  for (let m; (m = re.exec(xml)); ) yield [m[1], m[2]];
}

/** The first such element, or undefined. */
function first(xml, name) {
  for (const found of elements(xml, name)) return found;
  return undefined;
}

/** An element's attributes by local name (r:id is id). */
function attributes(source) {
  const found = {};
  for (const m of source.matchAll(/([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    found[m[1].replace(/^.*:/, '')] = text(m[2] !== undefined ? m[2] : m[3]);
  }
  return found;
}

/** The characters of a string item (<si>, <is>): its runs' text, phonetic guides left out. */
function runs(xml) {
  let out = '';
  const shown = xml.replace(/<(?:[\w.-]+:)?rPh[\s>][\s\S]*?<\/(?:[\w.-]+:)?rPh>/g, '');
  for (const [, t] of elements(shown, 't')) out += text(t || '');
  return out;
}

/** Built-in number formats that show a date or a time (ECMA-376 18.8.30, and the East Asian ones). */
const DATE_FORMAT_IDS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);
for (const id of [27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 50, 51, 52, 53, 54, 55, 56, 57, 58]) DATE_FORMAT_IDS.add(id);
function isDateFormat(code) {
  // Quoted text, escaped characters and bracketed parts ([Red], [$-409]) say nothing about dates.
  const bare = code.replace(/"[^"]*"|\\.|\[[^\]]*\]/g, '');
  return !/^general$/i.test(bare.trim()) && /[ymdhs]/i.test(bare);
}

/** For each cell style (the s attribute), whether it shows a date. */
function dateStyles(xml) {
  if (!xml) return [];
  const custom = new Map();
  for (const [a] of elements(xml, 'numFmt')) {
    const { numFmtId, formatCode } = attributes(a);
    custom.set(Number(numFmtId), formatCode || '');
  }
  const cellXfs = first(xml, 'cellXfs');
  if (!cellXfs || !cellXfs[1]) return [];
  return [...elements(cellXfs[1], 'xf')].map(([a]) => {
    const id = Number(attributes(a).numFmtId || 0);
    return custom.has(id) ? isDateFormat(custom.get(id)) : DATE_FORMAT_IDS.has(id);
  });
}

/** A date as the readers show it: its ISO day at midnight, else its ISO time. */
function day(date) {
  if (Number.isNaN(date.getTime())) return null;
  const iso = date.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
}

/** Column letters to a 0-based index: A → 0, AA → 26. */
function column(ref) {
  let n = 0;
  for (const ch of ref) n = n * 26 + ch.charCodeAt(0) - 64;
  return n - 1;
}

function sheetParts(workbook) {
  const rels = new Map();
  for (const [a] of elements(part('xl/_rels/workbook.xml.rels') || '', 'Relationship')) {
    const { Id, Target } = attributes(a);
    if (Id && Target) {
      const target = Target.startsWith('/') ? Target.slice(1) : 'xl/' + Target;
      const steps = target.split('/').reduce((p, s) => (s === '..' ? p.slice(0, -1) : s === '.' ? p : [...p, s]), []);
      rels.set(Id, steps.join('/'));
    }
  }
  return [...elements(workbook, 'sheet')].map(([a], i) => {
    const { name, id } = attributes(a);
    return { name, part: rels.get(id) || 'xl/worksheets/sheet' + (i + 1) + '.xml' };
  });
}

function cellValue(attrs, content, strings, dates, date1904) {
  if (content === undefined) return null;
  const type = attrs.t || 'n';
  if (type === 'inlineStr') {
    const is = first(content, 'is');
    return is && is[1] !== undefined ? runs(is[1]) : null;
  }
  const v = first(content, 'v');
  const raw = v && v[1] !== undefined ? text(v[1]) : undefined;
  if (raw === undefined || raw === '') return type === 'str' && raw === '' ? '' : null;
  switch (type) {
    case 's':
      return strings[Number(raw)] ?? null;
    case 'str':
    case 'e':
      return raw;
    case 'b':
      return raw === '1' || raw === 'true';
    case 'd':
      return day(new Date(raw));
    default: {
      const n = Number(raw);
      if (Number.isNaN(n)) return raw;
      if (!dates[Number(attrs.s || 0)]) return n;
      // Serial days since 1899-12-30 (1904 workbooks: 1904-01-01), to the millisecond as Excel keeps them.
      return day(new Date(Math.round((n - 25569 + (date1904 ? 1462 : 0)) * 86400000)));
    }
  }
}

try {
  const workbook = part('xl/workbook.xml');
  if (workbook === undefined) throw new Error('no xl/workbook.xml: not a workbook');
  const parts = sheetParts(workbook);
  const sheets = parts.map((s) => s.name);
  const chosen = sheet === undefined ? parts[0] : parts.find((s) => s.name === sheet);
  if (!chosen) {
    parentPort.postMessage({ sheets, lines: null });
  } else {
    const pr = first(workbook, 'workbookPr');
    const date1904 = pr ? /^(1|true)$/.test(attributes(pr[0]).date1904 || '') : false;
    const sst = part('xl/sharedStrings.xml') || '';
    const strings = [...elements(sst, 'si')].map(([, c]) => (c === undefined ? '' : runs(c)));
    const dates = dateStyles(part('xl/styles.xml'));
    const xml = part(chosen.part);
    if (xml === undefined) throw new Error('the sheet "' + chosen.name + '" has no part ' + chosen.part);
    const lines = [];
    for (const [, row] of elements(xml, 'row')) {
      if (row === undefined) continue;
      const cells = [];
      let next = 0;
      for (const [a, content] of elements(row, 'c')) {
        const attrs = attributes(a);
        const ref = /^([A-Z]+)\d*$/.exec(attrs.r || '');
        const at = ref ? column(ref[1]) : next;
        next = at + 1;
        const value = cellValue(attrs, content, strings, dates, date1904);
        if (value !== null) cells[at] = value;
      }
      if (cells.length > 0) lines.push(Array.from(cells, (cell) => (cell === undefined ? null : cell)));
    }
    parentPort.postMessage({ sheets, lines });
  }
} catch (error) {
  parentPort.postMessage({ error: { name: error && error.name, message: String((error && error.message) || error) } });
}
`;
