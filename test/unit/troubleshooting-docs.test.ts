// docs/troubleshooting.md quotes the messages users get. Each quoted line must still be, for the most part, text the
// code writes (a string or template of the product or the test kit, `${…}` standing for anything), so a reworded
// message fails here until the page follows; lines marked `from=<package>` are a dependency's words, looked up in its
// files. Each entry that quotes a message naming a setting links that setting's row of docs/deploying.md, and every
// link to docs/deploying.md points at an anchor that exists.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import ts from 'typescript';
import { anchorOf, productFiles, ROOT, settingsInCode, settingsRows, sourceOf } from '../helpers/settings-in-code';

const page = readFileSync(path.join(ROOT, 'docs', 'troubleshooting.md'), 'utf8');

interface Quote {
  entry: string;
  line: string;
  from?: string;
}

/** The page's entries (### sections, or ## when a section has none) and the lines of their ```text blocks. */
function entries(): { title: string; text: string; quotes: Quote[] }[] {
  const sections = page.split(/\n(?=#{2,3} )/).filter((s) => /^#{2,3} /.test(s));
  return sections.map((text) => {
    const title = text.split('\n')[0]!.replace(/^#+ /, '');
    const quotes = [...text.matchAll(/```text( from=(\S+))?\n([\s\S]*?)```/g)].flatMap((m) =>
      m[3]!
        .split('\n')
        .filter(Boolean)
        .map((line) => ({ entry: title, line, ...(m[2] ? { from: m[2] } : {}) })),
    );
    return { title, text, quotes };
  });
}

const quotes = entries().flatMap((e) => e.quotes);

/** What the processes put before a message: main()'s `error: `, the runtime's `warning: `, npm start's `[start] `,
 * the chat's `agent> `. */
const unprefixed = (line: string) => line.replace(/^(error: |warning: |\[start\] |agent> )/, '');

/** A message as the code writes it: its text, with HOLE where a value goes in. */
const HOLE = '\u0000';

/** Every string the product, the web app and the test kit write: literals, templates (`${…}` a hole), and
 * `'…' + '…'` chains of them. */
function messagesInCode(): string[] {
  const web = readdirSync(path.join(ROOT, 'web'))
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => path.join(ROOT, 'web', f));
  const testkit = readdirSync(path.join(ROOT, 'testkit'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(ROOT, 'testkit', f));
  const out: string[] = [];
  const textOf = (node: ts.Node): string | undefined => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isTemplateExpression(node))
      return node.head.text + node.templateSpans.map((s) => HOLE + s.literal.text).join('');
    if (ts.isParenthesizedExpression(node)) return textOf(node.expression);
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const [a, b] = [textOf(node.left), textOf(node.right)];
      if (a === undefined && b === undefined) return undefined;
      return (a ?? HOLE) + (b ?? HOLE);
    }
    return undefined;
  };
  for (const file of [...productFiles(), ...web, ...testkit]) {
    const visit = (node: ts.Node) => {
      const parent = node.parent;
      const inChain = parent && ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.PlusToken;
      const text = inChain ? undefined : textOf(node);
      if (text !== undefined && text.replaceAll(HOLE, '').length >= 8) out.push(text);
      ts.forEachChild(node, visit);
    };
    const source = file.endsWith('.tsx')
      ? ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true, ts.ScriptKind.TSX)
      : sourceOf(file);
    visit(source);
  }
  return out;
}

/** The same letter, in either case: a message may begin with its first word capitalised (`capitalised(what)`). */
const same = (x: string, y: string) => x.toLowerCase() === y.toLowerCase();

/**
 * The quote's characters that the code's text `template` writes itself (not through a hole), aligned at best: the
 * quote may be part of a longer message, and both HOLE (the code's values) and the page's … match any text.
 */
function aligned(template: string, quote: string): boolean[] {
  const a = template;
  const b = HOLE + quote.replaceAll('…', HOLE) + HOLE;
  const [m, n] = [a.length, b.length];
  const NONE = -1;
  // best[i][j]: the most literal characters matched aligning a[i..] with b[j..].
  const best = Array.from({ length: m + 1 }, () => new Int32Array(n + 1).fill(NONE));
  best[m]![n] = 0;
  for (let j = n - 1; j >= 0; j--) best[m]![j] = b[j] === HOLE ? best[m]![j + 1]! : NONE;
  for (let i = m - 1; i >= 0; i--) {
    const row = best[i]!;
    const below = best[i + 1]!;
    row[n] = a[i] === HOLE ? below[n]! : NONE;
    for (let j = n - 1; j >= 0; j--) {
      let v = NONE;
      if (a[i] === HOLE || b[j] === HOLE) v = Math.max(below[j]!, row[j + 1]!);
      if (a[i] !== HOLE && same(a[i]!, b[j]!) && below[j + 1]! !== NONE) v = Math.max(v, below[j + 1]! + 1);
      row[j] = v;
    }
  }
  const matched = new Array<boolean>(n).fill(false);
  if (best[0]![0]! <= 0) return matched.slice(1, -1);
  // Back along one best alignment, marking the quote's characters the template wrote.
  for (let i = 0, j = 0; i < m || j < n;) {
    const here = best[i]![j]!;
    if (i < m && j < n && a[i] !== HOLE && same(a[i]!, b[j]!) && best[i + 1]![j + 1]! + 1 === here) {
      matched[j] = true;
      i++;
      j++;
    } else if (i < m && (a[i] === HOLE || b[j] === HOLE) && best[i + 1]![j]! === here) i++;
    else j++;
  }
  return matched.slice(1, -1);
}

/** How much of `quote` the code writes: the best string of the code for it, then the best for each stretch left over
 * (a message built from messages: `Bad configuration: ${issue}`), counting the characters they write. */
function coverage(quote: string, index: Index, depth = 0): number {
  const shared = new Map<string, number>();
  for (const g of grams(quote.replaceAll('…', HOLE)))
    for (const text of index.get(g) ?? []) shared.set(text, (shared.get(text) ?? 0) + 1);
  // The strings sharing the most pieces with it are the ones worth aligning.
  const candidates = [...shared]
    .sort((x, y) => y[1] - x[1])
    .slice(0, 25)
    .map(([text]) => text);
  let best: boolean[] = [];
  let most = 0;
  for (const text of candidates) {
    const marks = aligned(text, quote);
    const count = marks.filter(Boolean).length;
    if (count > most) [best, most] = [marks, count];
  }
  if (!most || depth >= 3) return most;
  // The stretches no literal of that string wrote (its values), each covered in turn.
  const rest = quote
    .split('')
    .map((c, k) => (best[k] || c === '…' ? HOLE : c))
    .join('')
    .split(HOLE)
    .filter((s) => s.length >= 8);
  return most + rest.reduce((sum, s) => sum + coverage(s, index, depth + 1), 0);
}

/** Which of the code's strings hold each eight-character piece. */
type Index = Map<string, string[]>;

/** Eight-character pieces of a text, to find the code's strings worth aligning with a quote. */
const grams = (text: string) => {
  const out = new Set<string>();
  for (const part of text.split(HOLE)) for (let i = 0; i + 8 <= part.length; i++) out.add(part.slice(i, i + 8));
  return out;
};

/** Files of an npm package, text or binary, searched for a dependency's words. */
function packageText(name: string): Buffer[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((f) => {
      const full = path.join(dir, f);
      return statSync(full).isDirectory() ? walk(full) : [full];
    });
  return walk(path.join(ROOT, 'node_modules', name)).map((f) => readFileSync(f));
}

/** Node's own message for a port another server holds, as Node words it here. */
async function nodeAddressInUse(): Promise<string> {
  const listen = (server: Server, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
    });
  const first = createServer();
  const port = await listen(first, 0);
  const second = createServer();
  try {
    await listen(second, port);
    return '';
  } catch (err) {
    return (err as Error).message.replace(`:${port}`, ':8080');
  } finally {
    first.close();
    second.close();
  }
}

describe('docs/troubleshooting.md', () => {
  it('quotes messages', () => {
    expect(entries().filter((e) => e.quotes.length).length).toBeGreaterThan(15);
  });

  it('quotes only messages the code still writes', () => {
    const index: Index = new Map();
    for (const text of new Set(messagesInCode()))
      for (const g of grams(text)) {
        const holders = index.get(g);
        if (holders) holders.push(text);
        else index.set(g, [text]);
      }
    const missing = quotes
      .filter((q) => !q.from)
      .filter(({ line }) => {
        const quote = unprefixed(line);
        // The code must write most of the quote: a message reworded, or gone, leaves too little.
        return coverage(quote, index) < 0.5 * quote.replaceAll('…', '').length;
      })
      .map((q) => `${q.entry}: ${q.line}`);
    expect(missing).toEqual([]);
  });

  it("quotes a dependency's messages as it words them", async () => {
    const wrong: string[] = [];
    for (const q of quotes.filter((q) => q.from)) {
      if (q.from === 'node') {
        if (unprefixed(q.line) !== (await nodeAddressInUse())) wrong.push(q.line);
        continue;
      }
      // Its longest run of words must be in the package (its JavaScript, or a native library's strings).
      const words = unprefixed(q.line)
        .split(/[^A-Za-z ]+/)
        .sort((a, b) => b.length - a.length)[0]!
        .trim();
      const files = packageText(q.from!);
      if (words.length < 10 || !files.some((f) => f.includes(words))) wrong.push(`${q.from}: ${q.line}`);
    }
    expect(wrong).toEqual([]);
  });

  it('links the row of every setting a quoted message names, and only rows (or sections) that exist', () => {
    const names = new Set([...settingsInCode().readIn.keys(), ...settingsRows().map((r) => r.name)]);
    const unlinked = entries().flatMap(({ title, text, quotes }) =>
      quotes.flatMap((q) =>
        [...q.line.matchAll(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g)]
          .map((m) => m[0])
          .filter((name) => names.has(name) && !text.includes(`](deploying.md#${anchorOf(name)})`))
          .map((name) => `${title}: ${name}`),
      ),
    );
    expect([...new Set(unlinked)]).toEqual([]);

    const anchors = anchorsIn(readFileSync(path.join(ROOT, 'docs', 'deploying.md'), 'utf8'));
    const links = [...page.matchAll(/\]\(deploying\.md#([^)]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(20);
    expect(links.filter((a) => !anchors.has(a))).toEqual([]);
  });

  it('and the glossary and the tutorial link only to headings and anchors that exist', () => {
    const broken = ['troubleshooting.md', 'glossary.md', 'tutorial.md'].flatMap((name) => {
      const text = readFileSync(path.join(ROOT, 'docs', name), 'utf8');
      return [...text.matchAll(/\]\(([^)#\s]*)#([^)\s]+)\)/g)]
        .filter(([, file]) => !file!.startsWith('http'))
        .filter(([, file, anchor]) => {
          const target = file ? path.join(ROOT, 'docs', file) : path.join(ROOT, 'docs', name);
          return !anchorsIn(readFileSync(target, 'utf8')).has(anchor!);
        })
        .map(([link]) => `${name}: ${link}`);
    });
    expect(broken).toEqual([]);
  });
});

/** The anchors of a Markdown page: its headings as GitHub names them, and its `<a id>`s (code blocks left out). */
function anchorsIn(markdown: string): Set<string> {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '');
  return new Set([
    ...[...prose.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]!),
    ...[...prose.matchAll(/^#+ (.+)$/gm)].map((m) =>
      m[1]!
        .toLowerCase()
        .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
        .replaceAll(' ', '-'),
    ),
  ]);
}
