// The readers on text kinds and images: the type found in the content whatever the name, windows of characters and
// rows, JSONPath and column filters, and every refusal in words. PDFs and workbooks: readers-files.test.ts.
import { randomBytes } from 'node:crypto';
import { PREVIEW_CHARS } from '../../core/blobs';
import {
  DEFAULT_READER_LIMITS,
  FileRefusal,
  TYPES,
  describeFile,
  detectType,
  readWindow,
  readerLimitsFromEnv,
} from '../../readers';
import { queryJson } from '../../readers/json-path';
import { CITIES, gifHeader, jpegHeader, makeCsv, pngHeader, webpHeader } from '../helpers/reader-fixtures';

const text = (s: string) => Buffer.from(s, 'utf8');
const refusal = (message: RegExp) =>
  expect.objectContaining({ name: 'FileRefusal', message: expect.stringMatching(message) });

describe('detectType', () => {
  it('finds text kinds in the content: JSON, CSV, TSV, Markdown, plain text', () => {
    expect(detectType(text('{"a": [1, 2]}'), 'x.bin').type).toBe(TYPES.json);
    expect(detectType(text('a,b,c\n1,2,3\n4,"5,5",6\n'), 'data').type).toBe(TYPES.csv);
    expect(detectType(text('a;b;c\n1;2;3\n'), 'data').type).toBe(TYPES.csv);
    expect(detectType(text('a\tb\n1\t2\n3\t4\n'), 'data').type).toBe(TYPES.tsv);
    expect(detectType(text('# Title\n\nSome words.\n'), 'notes').type).toBe(TYPES.markdown);
    expect(detectType(text('Just words, here.\nAnd more words\n'), 'notes').type).toBe(TYPES.text);
    expect(detectType(text('Yes, sure.\nOK, done.\n'), 'reply').type).toBe(TYPES.text);
    expect(detectType(text('a,b\n1,2\n3,4\n'), 'data').type).toBe(TYPES.csv);
  });

  it('finds images by their magic numbers', () => {
    expect(detectType(pngHeader(2, 2), 'a').type).toBe(TYPES.png);
    expect(detectType(jpegHeader(2, 2), 'a').type).toBe(TYPES.jpeg);
    expect(detectType(gifHeader(2, 2), 'a').type).toBe(TYPES.gif);
    expect(detectType(webpHeader(2, 2), 'a').type).toBe(TYPES.webp);
  });

  it('lets the content win over the name, and says so', () => {
    const found = detectType(text('{"not": "a table"}'), 'report.csv');
    expect(found).toEqual({ type: TYPES.json, note: 'report.csv is JSON, not a CSV table: read as JSON' });
    expect(detectType(pngHeader(1, 1), 'photo.jpg').note).toMatch(/photo\.jpg is a PNG image/);
  });

  it('takes a text name only where the content cannot tell: a one-column CSV', () => {
    expect(detectType(text('name\nAda\nGrace\n'), 'people.csv')).toEqual({ type: TYPES.csv });
    expect(detectType(text('name\nAda\nGrace\n'), 'people.txt')).toEqual({ type: TYPES.text });
  });

  it('refuses an empty file, random bytes and binary kinds it does not read, in words', () => {
    expect(() => detectType(new Uint8Array(0), 'empty.txt')).toThrow(/an empty file/);
    expect(() => detectType(randomBytes(4096), 'data.csv')).toThrow(/not a file type I can read: binary data/);
    expect(() => detectType(Buffer.from([0x1f, 0x8b, 8, 0, 0, 0]), 'a.gz')).toThrow(/a gzip archive/);
    expect(() => detectType(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0, 0]), 'old.xls')).toThrow(/old Office file/);
    expect(() => detectType(text('a\0b'), 'a.txt')).toThrow(FileRefusal);
  });

  it('refuses a file over READER_MAX_BYTES', () => {
    const limits = { ...DEFAULT_READER_LIMITS, maxBytes: 10 };
    expect(() => detectType(text('hello world, hello'), 'a.txt', limits)).toThrow(
      'a.txt is 18 B, over the 10 B a reader opens (READER_MAX_BYTES)',
    );
  });
});

describe('readerLimitsFromEnv', () => {
  it('reads the settings, and names a bad one', () => {
    const limits = readerLimitsFromEnv({
      READER_MAX_BYTES: '5MB',
      READER_MAX_PDF_PAGES: '10',
      READER_MAX_UNZIPPED_MB: '20',
    });
    expect(limits).toMatchObject({ maxBytes: 5 * 1024 * 1024, maxPdfPages: 10, maxUnzippedBytes: 20 * 1024 * 1024 });
    expect(readerLimitsFromEnv({})).toEqual(DEFAULT_READER_LIMITS);
    expect(() => readerLimitsFromEnv({ READER_MAX_PDF_PAGES: 'lots' })).toThrow(
      /READER_MAX_PDF_PAGES must be a positive/,
    );
  });
});

describe('text reader', () => {
  const body = 'line one\n'.repeat(500);

  it('describes with the start of the text and its length', async () => {
    const about = await describeFile(text(body), 'notes.txt');
    expect(about).toEqual({ type: TYPES.text, preview: body.slice(0, PREVIEW_CHARS), facts: { chars: body.length } });
  });

  it('reads windows of characters, saying where the next starts', async () => {
    const first = await readWindow(text(body), TYPES.text, { length: 100 }, 4000);
    expect(first).toEqual({ type: TYPES.text, text: body.slice(0, 100), more: true, next: { offset: 100 } });
    const last = await readWindow(text(body), TYPES.text, { offset: body.length - 9 }, 4000);
    expect(last).toEqual({ type: TYPES.text, text: 'line one\n', more: false });
    const capped = await readWindow(text(body), TYPES.text, { offset: 10, length: 10_000 }, 50);
    expect(capped.text).toHaveLength(50);
  });

  it('never splits a character made of two code units', async () => {
    const read = await readWindow(text('ab😀cd'), TYPES.text, { length: 3 }, 100);
    expect(read.text).toBe('ab');
    expect(read.next).toEqual({ offset: 2 });
  });

  it('refuses a window it cannot serve, naming what it can, and an offset past the end', async () => {
    await expect(readWindow(text(body), TYPES.markdown, { pages: { from: 2 } }, 100)).rejects.toThrow(
      'text cannot be read by pages: it can be read by characters (offset, length)',
    );
    await expect(readWindow(text('short'), TYPES.text, { offset: 99 }, 100)).rejects.toThrow(
      /past the end: the text has 5/,
    );
    await expect(readWindow(text('short'), TYPES.text, { length: 0 }, 100)).rejects.toThrow(
      'length must be a whole number ≥ 1, not 0',
    );
  });
});

describe('JSON reader', () => {
  const doc = {
    store: 'north',
    items: Array.from({ length: 30 }, (_, i) => ({ id: i, name: `item ${i}`, tags: i % 3 ? [] : ['sale'] })),
    owner: { name: 'Ada', address: { city: 'Paris' } },
  };
  const bytes = text(JSON.stringify(doc));

  it('describes the shape and the pretty-printed length', async () => {
    const about = await describeFile(bytes, 'store.json');
    expect(about.type).toBe(TYPES.json);
    expect(about.preview).toMatch(
      /^JSON, an object with 3 keys: store, items, owner; [\d,]+ characters pretty-printed\n\{\n {2}"store"/,
    );
    expect(about.preview.length).toBeLessThanOrEqual(PREVIEW_CHARS);
    expect(about.facts.chars).toBe(JSON.stringify(doc, null, 2).length);
  });

  it('answers JSONPath queries with their matches, counted', async () => {
    const names = await readWindow(bytes, TYPES.json, { jsonPath: '$.items[*].name' }, 100_000);
    expect(names.matched).toBe(30);
    expect(JSON.parse(names.text)).toEqual(doc.items.map((i) => i.name));
    expect(JSON.parse((await readWindow(bytes, TYPES.json, { jsonPath: '$.items[0:2].id' }, 1000)).text)).toEqual([
      0, 1,
    ]);
    expect(JSON.parse((await readWindow(bytes, TYPES.json, { jsonPath: '$..city' }, 1000)).text)).toEqual(['Paris']);
    expect(JSON.parse((await readWindow(bytes, TYPES.json, { jsonPath: "$['owner'].name" }, 1000)).text)).toEqual([
      'Ada',
    ]);
  });

  it('windows long matches by characters, keeping the query', async () => {
    const read = await readWindow(bytes, TYPES.json, { jsonPath: '$.items' }, 200);
    expect(read.text).toHaveLength(200);
    expect(read).toMatchObject({ matched: 1, more: true, next: { jsonPath: '$.items', offset: 200 } });
  });

  it('runs nothing from a query: filter and script expressions are refused', async () => {
    await expect(readWindow(bytes, TYPES.json, { jsonPath: '$.items[?(@.id > 2)]' }, 100)).rejects.toThrow(
      /filter and script expressions are not run/,
    );
    await expect(readWindow(bytes, TYPES.json, { jsonPath: '$.items[(process.exit())]' }, 100)).rejects.toThrow(
      FileRefusal,
    );
  });

  it('reads a 3 MB result by query without printing all of it', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ id: i, sku: `SKU-${i}`, note: 'x'.repeat(100) }));
    const big = text(JSON.stringify({ rows }));
    expect(big.length).toBeGreaterThan(2.5 * 1024 * 1024);
    const started = performance.now();
    const about = await describeFile(big, 'listing result');
    const read = await readWindow(big, TYPES.json, { jsonPath: '$.rows[19999].sku' }, 1000);
    const ms = performance.now() - started;
    expect(about.preview).toMatch(/^JSON, an object with 1 key: rows;/);
    expect(read).toMatchObject({ text: '[\n  "SKU-19999"\n]', matched: 1, more: false });
    if (process.env.READER_TIMINGS) console.log(`describe and query 3 MB JSON: ${ms.toFixed(0)} ms`);
  });

  it('refuses JSON nested too deeply to print, in words', async () => {
    const deep = text('['.repeat(100_000) + ']'.repeat(100_000));
    await expect(readWindow(deep, TYPES.json, {}, 100)).rejects.toThrow('JSON nested too deeply to print');
  });

  it('follows the small JSONPath subset', () => {
    const data = { a: [{ b: 1 }, { b: 2 }, { b: 3 }, { c: { b: 4 } }] };
    expect(queryJson(data, '$.a[-1].c.b')).toEqual([4]);
    expect(queryJson(data, '$.a[::-1]')).toHaveLength(4);
    expect(queryJson(data, '$.a[0,2].b')).toEqual([1, 3]);
    expect(queryJson(data, '$..b')).toEqual([1, 2, 3, 4]);
    expect(queryJson(data, 'a[1].b')).toEqual([2]);
    expect(queryJson(data, '$.missing.path')).toEqual([]);
  });
});

describe('CSV reader', () => {
  const csv = makeCsv(50_000);

  it('describes 50,000 rows with their columns', async () => {
    const started = performance.now();
    const about = await describeFile(csv, 'orders.csv');
    const ms = performance.now() - started;
    expect(about.type).toBe(TYPES.csv);
    expect(about.facts).toEqual({ rows: 50_000, columns: ['id', 'city', 'amount', 'active', 'zip'] });
    expect(about.preview).toMatch(
      /^CSV table, 50,000 rows × 5 columns\nid,city,amount,active,zip\n0,Paris,0.5,true,00000\n/,
    );
    expect(about.preview.length).toBeLessThanOrEqual(PREVIEW_CHARS);
    if (process.env.READER_TIMINGS) console.log(`describe 50k-row CSV: ${ms.toFixed(0)} ms`);
  });

  it('reads a window of rows, typed, with the next window', async () => {
    const read = await readWindow(csv, TYPES.csv, { rows: { from: 100, count: 3 } }, 10_000);
    expect(read.rows).toEqual([
      [100, 'Paris', 100.5, true, '00100'],
      [101, 'Lagos', 101.5, false, '00101'],
      [102, 'Lima', 102.5, true, '00102'],
    ]);
    expect(read.text).toBe(
      'rows 100–102 of 50,000\nid,city,amount,active,zip\n100,Paris,100.5,true,00100\n101,Lagos,101.5,false,00101\n102,Lima,102.5,true,00102',
    );
    expect(read).toMatchObject({ more: true, next: { rows: { from: 103, count: 3 } } });
  });

  it('filters on a column — numbers as numbers, text by contains — counting every match', async () => {
    const started = performance.now();
    const big = await readWindow(
      csv,
      TYPES.csv,
      { where: { column: 'amount', op: '>=', value: '990' }, rows: { from: 0, count: 5 } },
      10_000,
    );
    const ms = performance.now() - started;
    // amount = id % 1000 + 0.5: 990.5 … 999.5 in each thousand, ten per thousand.
    expect(big.matched).toBe(500);
    expect(big.rows?.map((r) => r[0])).toEqual([990, 991, 992, 993, 994]);
    expect(big.next).toEqual({ rows: { from: 5, count: 5 }, where: { column: 'amount', op: '>=', value: '990' } });
    if (process.env.READER_TIMINGS) console.log(`filter 50k-row CSV: ${ms.toFixed(0)} ms`);

    const lima = await readWindow(
      csv,
      TYPES.csv,
      { where: { column: 'City', op: 'contains', value: 'lim' } },
      1_000_000,
    );
    expect(lima.matched).toBe(50_000 / CITIES.length);
    expect(lima.rows).toHaveLength(1000);
    const zip = await readWindow(csv, TYPES.csv, { where: { column: 'zip', op: '=', value: '00042' } }, 1000);
    expect(zip.rows).toEqual([[42, 'Lima', 42.5, true, '00042']]);
    expect(zip.more).toBe(false);
  });

  it('keeps a read within maxChars, at a row boundary', async () => {
    const read = await readWindow(csv, TYPES.csv, {}, 300);
    expect(read.text.length).toBeLessThanOrEqual(300);
    expect(read.next).toEqual({ rows: { from: read.rows!.length, count: 1000 } });
  });

  it('reads TSV the same way', async () => {
    const tsv = makeCsv(10, '\t');
    expect((await describeFile(tsv, 'x.tsv')).type).toBe(TYPES.tsv);
    const read = await readWindow(tsv, TYPES.tsv, { rows: { from: 9, count: 5 } }, 1000);
    expect(read.rows).toEqual([[9, 'Pune', 9.5, false, '00009']]);
  });

  it('reads a UTF-16 export with its byte-order mark, and drops a UTF-8 one', async () => {
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('name\tcity\nAda\tLondon\nGrace\tNew York\n', 'utf16le'),
    ]);
    const about = await describeFile(utf16, 'export.txt');
    expect(about).toMatchObject({ type: TYPES.tsv, facts: { rows: 2, columns: ['name', 'city'] } });
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('id,city,n\n1,Oslo,2\n2,Pune,3\n')]);
    const read = await readWindow(bom, TYPES.csv, { where: { column: 'id', op: '=', value: 2 } }, 1000);
    expect(read.rows).toEqual([[2, 'Pune', 3]]);
  });

  it('refuses pages, an unknown column and an unknown operator, naming what there is', async () => {
    await expect(readWindow(csv, TYPES.csv, { pages: { from: 1 } }, 100)).rejects.toThrow(
      'a CSV/TSV table cannot be read by pages: it can be read by rows (rows: {from, count}), or a filter on a column (where: {column, op, value})',
    );
    await expect(readWindow(csv, TYPES.csv, { where: { column: 'price', op: '>', value: 1 } }, 100)).rejects.toThrow(
      'no column "price": the columns are id, city, amount, active, zip',
    );
    await expect(
      readWindow(csv, TYPES.csv, { where: { column: 'id', op: '~' as never, value: 1 } }, 100),
    ).rejects.toThrow(/no operator "~"/);
  });
});

describe('image reader', () => {
  it.each([
    ['PNG', pngHeader(640, 480)],
    ['JPEG', jpegHeader(640, 480)],
    ['GIF', gifHeader(640, 480)],
    ['WebP', webpHeader(640, 480)],
  ])('gives a %s its size in pixels from the header', async (kind, bytes) => {
    const about = await describeFile(bytes, 'picture');
    expect(about.facts).toEqual({ width: 640, height: 480 });
    expect(about.preview).toMatch(new RegExp(`^image, \\d+ B, 640×480, ${kind}$`));
    const read = await readWindow(bytes, about.type, {}, 100);
    expect(read).toMatchObject({ text: about.preview, more: false });
  });

  it('refuses any window: an image is seen whole', async () => {
    await expect(readWindow(pngHeader(1, 1), TYPES.png, { offset: 5 }, 100)).rejects.toEqual(
      refusal(/cannot be read by offset\/length: it is read whole/),
    );
  });
});
