// The readers on files with structure: a 12-page PDF written by testkit/pdf.ts (page 7 holds the secret), workbooks
// (written here, and one exceljs wrote), and zip bombs written by hand — each read right or refused in words before
// anything is inflated.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PREVIEW_CHARS } from '../../core/blobs';
import { isoDay } from '../../core/days';
import { DEFAULT_READER_LIMITS, FileRefusal, TYPES, describeFile, readWindow } from '../../readers';
import { guardZip } from '../../readers/zip';
import { makePdf, makeXlsx, deflatedZeros, makeZip, makeZipBomb } from '../helpers/reader-fixtures';

const MB = 1024 * 1024;
/** The day in row `i` of makeXlsx's Sales sheet (0 = the first row under the header), as it writes it. */
const salesDay = (i: number) => isoDay(new Date(Date.UTC(2026, 0, 1 + (i % 28))));

describe('PDF reader', () => {
  let pdf: Uint8Array;
  beforeAll(async () => {
    pdf = await makePdf(12);
  });

  it('describes pages, title and author, with the first pages as the preview', async () => {
    const started = performance.now();
    const about = await describeFile(pdf, 'report.pdf');
    const ms = performance.now() - started;
    expect(about.type).toBe(TYPES.pdf);
    expect(about.facts).toEqual({ pages: 12 });
    expect(about.preview).toMatch(
      /^PDF, 12 pages, “Quarterly report”, by Ada Lovelace\n\[page 1\]\nPage 1 of the quarterly report\./,
    );
    expect(about.preview.length).toBeLessThanOrEqual(PREVIEW_CHARS);
    if (process.env.READER_TIMINGS) console.log(`describe 12-page PDF: ${ms.toFixed(0)} ms`);
  });

  it('reads page 7 by itself', async () => {
    const started = performance.now();
    const read = await readWindow(pdf, TYPES.pdf, { pages: { from: 7, to: 7 } }, 10_000);
    const ms = performance.now() - started;
    expect(read).toEqual({
      type: TYPES.pdf,
      text: '[page 7]\nPage 7 of the quarterly report.\nThe vault code is 4-8-15-16-23-42.',
      more: false,
    });
    if (process.env.READER_TIMINGS) console.log(`read page 7 of 12-page PDF: ${ms.toFixed(0)} ms`);
  });

  it('reads by characters across pages, saying where the next window starts', async () => {
    const first = await readWindow(pdf, TYPES.pdf, {}, 100);
    expect(first.text).toHaveLength(100);
    expect(first).toMatchObject({ more: true, next: { offset: 100 } });
    const rest = await readWindow(pdf, TYPES.pdf, { pages: { from: 11 }, offset: 25 }, 10_000);
    expect(rest.text).toMatch(/^quarterly report\.\n\n\[page 12\]\nPage 12 of the quarterly report\.$/);
    expect(rest.more).toBe(false);
  });

  it('refuses pages past the end, and a window it cannot serve', async () => {
    await expect(readWindow(pdf, TYPES.pdf, { pages: { from: 13 } }, 100)).rejects.toThrow(
      'page 13 is past the end: the PDF has 12 pages',
    );
    await expect(readWindow(pdf, TYPES.pdf, { rows: { from: 0, count: 5 } }, 100)).rejects.toThrow(
      'a PDF cannot be read by rows: it can be read by pages (pages: {from, to}), or characters (offset, length)',
    );
  });

  it('serves several reads at once (two workers at a time, the rest waiting their turn)', async () => {
    const reads = await Promise.all(
      [1, 4, 7, 10, 12].map((page) => readWindow(pdf, TYPES.pdf, { pages: { from: page, to: page } }, 1000)),
    );
    expect(reads.map((r) => r.text.split('\n')[0])).toEqual([
      '[page 1]',
      '[page 4]',
      '[page 7]',
      '[page 10]',
      '[page 12]',
    ]);
  });

  it('reads a PDF named .csv as the PDF it is, and says so', async () => {
    const about = await describeFile(pdf, 'report.csv');
    expect(about).toMatchObject({ type: TYPES.pdf, note: 'report.csv is a PDF, not a CSV table: read as a PDF' });
    expect(about.preview).toMatch(/^\(report\.csv is a PDF, not a CSV table: read as a PDF\)\nPDF, 12 pages/);
  });

  it('refuses a malformed PDF in words', async () => {
    const broken = Buffer.from(
      '%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 9 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF',
    );
    await expect(describeFile(broken, 'broken.pdf')).rejects.toThrow(/^(a malformed PDF|the PDF could not be read): /);
    const garbage = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2000, 0x41)]);
    await expect(describeFile(garbage, 'garbage.pdf')).rejects.toThrow(
      /^(a malformed PDF|the PDF could not be read): /,
    );
  });

  it('reads a truncated PDF as far as pdf.js can, or refuses it in words', async () => {
    const cut = pdf.slice(0, Math.floor(pdf.length / 2));
    const outcome = await describeFile(cut, 'cut.pdf').then(
      (about) => about.facts,
      (error: Error) => error,
    );
    if (outcome instanceof Error) expect(outcome).toBeInstanceOf(FileRefusal);
    else expect(outcome.pages).toBeGreaterThan(0);
  });

  it('refuses a PDF over the page limit, and one that takes too long', async () => {
    await expect(describeFile(pdf, 'report.pdf', { ...DEFAULT_READER_LIMITS, maxPdfPages: 10 })).rejects.toThrow(
      'a PDF of 12 pages, over the 10 a reader takes (READER_MAX_PDF_PAGES)',
    );
    await expect(describeFile(pdf, 'report.pdf', { ...DEFAULT_READER_LIMITS, timeoutMs: 1 })).rejects.toThrow(
      'the PDF took longer than 0.001 s to read (READER_TIMEOUT_S)',
    );
  });
});

describe('XLSX reader', () => {
  let xlsx: Uint8Array;
  beforeAll(async () => {
    xlsx = makeXlsx(200);
  });

  it('finds a workbook in the content and describes its sheets', async () => {
    const about = await describeFile(xlsx, 'sales.xlsx');
    expect(about.type).toBe(TYPES.xlsx);
    expect(about.facts).toEqual({
      rows: 200,
      columns: ['region', 'units', 'price', 'total', 'day'],
      sheets: ['Sales', 'Notes'],
    });
    expect(about.preview).toMatch(
      new RegExp(
        `^XLSX workbook, sheets: Sales, Notes; sheet "Sales", 200 rows × 5 columns\\nregion,units,price,total,day\\nSouth,0,2.5,0,${salesDay(0)}\\n`,
      ),
    );
  });

  it('reads rows with formulas as their saved results, never evaluated', async () => {
    const read = await readWindow(xlsx, TYPES.xlsx, { rows: { from: 3, count: 2 } }, 10_000);
    expect(read.rows).toEqual([
      ['North', 3, 2.5, 7.5, salesDay(3)],
      ['South', 4, 2.5, 10, salesDay(4)],
    ]);
    expect(read.text).toMatch(/^sheet "Sales", rows 3–4 of 200\n/);
    expect(read.next).toEqual({ rows: { from: 5, count: 2 } });
  });

  it('filters a sheet on a column and reads another sheet by name', async () => {
    const north = await readWindow(
      xlsx,
      TYPES.xlsx,
      { where: { column: 'units', op: '>', value: 47 }, rows: { from: 0, count: 100 } },
      10_000,
    );
    // units = i % 50 over 200 rows: 48 and 49 four times each.
    expect(north.matched).toBe(8);
    expect(north.more).toBe(false);
    const notes = await readWindow(xlsx, TYPES.xlsx, { sheet: 'Notes' }, 1000);
    expect(notes.rows).toEqual([['Figures are provisional']]);
    await expect(readWindow(xlsx, TYPES.xlsx, { sheet: 'Costs' }, 1000)).rejects.toThrow(
      'no sheet "Costs": the sheets are Sales, Notes',
    );
  });

  it('reads a workbook another program wrote (exceljs) as it shows: escapes, rich text, links, errors, gaps', async () => {
    const ledger = new Uint8Array(
      readFileSync(path.join(__dirname, '..', 'fixtures', 'readers', 'exceljs-ledger.xlsx')),
    );
    const about = await describeFile(ledger, 'ledger.xlsx');
    expect(about.facts).toEqual({
      rows: 4,
      columns: ['item', 'amount', 'paid', 'total', 'note', 'when', 'column 7', 'column 8'],
      sheets: ['Ledger', 'Notes'],
    });
    const read = await readWindow(ledger, TYPES.xlsx, {}, 10_000);
    // The day exceljs wrote (serial 46085), at midnight and at 13:30.
    const day = new Date(Date.UTC(2026, 2, 4));
    expect(read.rows).toEqual([
      ['Tea & "cakes" <x>', 3.5, true, 7, 'half price', isoDay(day), null, null],
      ['Zero', 0, false, 0, 'the site', new Date(day.getTime() + 13.5 * 3_600_000).toISOString(), null, null],
      ['Gap', null, null, '#DIV/0!', 'Gap!', null, null, null],
      ['Line one\nline two', null, null, null, null, null, null, 'far'],
    ]);
  });

  it('reads what other writers put differently: inline strings, no cell refs, prefixes, 1904 dates, custom formats', async () => {
    const ns = 'xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
    const sheet =
      `<x:worksheet ${ns}><x:sheetData>` +
      '<x:row><x:c t="inlineStr"><x:is><x:t>name</x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:t>on</x:t></x:is></x:c>' +
      '<x:c t="inlineStr"><x:is><x:t>at</x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:t>flag</x:t></x:is></x:c></x:row>' +
      '<x:row><x:c t="inlineStr"><x:is><x:r><x:t>a_x005F_x000D_b</x:t></x:r><x:rPh><x:t>ignored</x:t></x:rPh></x:is></x:c>' +
      '<x:c s="1"><x:v>0</x:v></x:c><x:c s="2"><x:v>0.75</x:v></x:c><x:c t="b"><x:v>1</x:v></x:c></x:row>' +
      '<x:row><x:c t="inlineStr"><x:is><x:t>caf&#233; &#x263A;</x:t></x:is></x:c><x:c s="3"><x:v>12.5</x:v></x:c>' +
      `<x:c t="d"><x:v>${new Date(Date.UTC(2000, 0, 2, 3, 4, 5)).toISOString()}</x:v></x:c><x:c><x:f>NOW()</x:f></x:c></x:row>` +
      '<x:row><x:c s="1"/></x:row></x:sheetData></x:worksheet>';
    const styles =
      `<x:styleSheet ${ns}><x:numFmts><x:numFmt numFmtId="164" formatCode="dd/mm/yyyy"/>` +
      '<x:numFmt numFmtId="165" formatCode="[h]:mm"/><x:numFmt numFmtId="166" formatCode="&quot;days&quot; 0.0"/></x:numFmts>' +
      '<x:cellXfs><x:xf numFmtId="0"/><x:xf numFmtId="164"/><x:xf numFmtId="165"/><x:xf numFmtId="166"/></x:cellXfs></x:styleSheet>';
    const parts: [string, string][] = [
      [
        'xl/workbook.xml',
        `<x:workbook ${ns}><x:workbookPr date1904="1"/><x:sheets><x:sheet name="Data" sheetId="1" r:id="rId7"/></x:sheets></x:workbook>`,
      ],
      [
        'xl/_rels/workbook.xml.rels',
        '<Relationships><Relationship Id="rId7" Target="/xl/worksheets/data.xml"/></Relationships>',
      ],
      ['xl/worksheets/data.xml', sheet],
      ['xl/styles.xml', styles],
    ];
    const workbook = makeZip(
      parts.map(([name, text]) => ({ name, data: Buffer.from(text), method: 0, size: Buffer.byteLength(text) })),
    );
    const read = await readWindow(workbook, TYPES.xlsx, {}, 10_000);
    expect(read.rows).toEqual([
      // 1904 dates count from 1 January 1904; [h]:mm is a time; "days" 0.0 is quoted text, not a date.
      ['a_x000D_b', isoDay(new Date(Date.UTC(1904, 0, 1))), new Date(Date.UTC(1904, 0, 1, 18)).toISOString(), true],
      ['café ☺', 12.5, new Date(Date.UTC(2000, 0, 2, 3, 4, 5)).toISOString(), null],
    ]);
  });

  it('refuses a workbook that takes too long to parse', async () => {
    await expect(describeFile(xlsx, 'sales.xlsx', { ...DEFAULT_READER_LIMITS, timeoutMs: 1 })).rejects.toThrow(
      'the workbook took longer than 0.001 s to read (READER_TIMEOUT_S)',
    );
  });

  it('refuses a workbook that needs more memory than its worker has, and the process lives on', async () => {
    // 30,000 rows (5.7 MB of XML) take about 20 MB of heap.
    const big = makeXlsx(30_000);
    await expect(describeFile(big, 'sales.xlsx', { ...DEFAULT_READER_LIMITS, workerHeapMb: 8 })).rejects.toThrow(
      'the workbook needs more memory than a reader is given (8 MB, READER_WORKER_HEAP_MB)',
    );
    expect((await describeFile(big, 'sales.xlsx')).facts.rows).toBe(30_000);
  });

  it('refuses a workbook that inflates past READER_MAX_UNZIPPED_MB', async () => {
    await expect(
      describeFile(xlsx, 'sales.xlsx', { ...DEFAULT_READER_LIMITS, maxUnzippedBytes: 1000 }),
    ).rejects.toThrow(
      /^a zip bomb or too big: it would inflate to [\d.]+ KB, over the 1000 B \(READER_MAX_UNZIPPED_MB\)/,
    );
  });
});

describe('zip bomb guard', () => {
  it('refuses a workbook whose entry inflates past 100 MB, from its directory, before inflating', async () => {
    const bomb = makeZipBomb(120 * MB);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const refusal =
      /^a zip bomb or too big: it would inflate to 120\.0 MB, over the 100\.0 MB \(READER_MAX_UNZIPPED_MB\) a reader unpacks$/;
    await expect(describeFile(bomb, 'sales.xlsx')).rejects.toThrow(refusal);
    // Refused from the headers, nothing inflated: the same headers over bytes that are not deflate at all are refused
    // in the same words (inflating them would fail with an inflate error instead).
    const garbage = makeZip([
      { name: 'xl/workbook.xml', data: Buffer.from('<workbook/>'), method: 0, size: 11 },
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(deflatedZeros(120 * MB).length, 0xff), size: 120 * MB },
    ]);
    await expect(describeFile(garbage, 'sales.xlsx')).rejects.toThrow(refusal);
  });

  it('refuses a ratio over 100:1 under the size limit', async () => {
    await expect(describeFile(makeZipBomb(20 * MB), 'sales.xlsx')).rejects.toThrow(
      /^a zip bomb: [\d.]+ KB would inflate to 20\.0 MB \(\d+:1, over 100:1\)$/,
    );
  });

  it('catches an entry that inflates past the size it declares', () => {
    const liar = makeZipBomb(20 * MB, 1000);
    expect(() => guardZip(liar, { ...DEFAULT_READER_LIMITS, maxZipRatio: Infinity })).toThrow(
      /^a zip bomb: xl\/worksheets\/sheet1\.xml inflates past the 1000 B it declares/,
    );
  });

  it('refuses too many entries, and ZIPs that are not workbooks', async () => {
    const tiny = Array.from({ length: 20 }, (_, i) => ({
      name: `f${i}`,
      data: Buffer.from('x'),
      method: 0 as const,
      size: 1,
    }));
    expect(() => guardZip(makeZip(tiny), { ...DEFAULT_READER_LIMITS, maxZipEntries: 10 })).toThrow(
      'a ZIP archive of 20 entries, over the limit of 10',
    );
    await expect(describeFile(makeZip(tiny), 'data.xlsx')).rejects.toThrow(
      'not a file type I can read: a ZIP archive (only XLSX workbooks are unpacked)',
    );
    const doc = makeZip([{ name: 'word/document.xml', data: Buffer.from('<w/>'), method: 0, size: 4 }]);
    await expect(describeFile(doc, 'report.docx')).rejects.toThrow(
      'not a file type I can read: a Word document (.docx)',
    );
  });
});
