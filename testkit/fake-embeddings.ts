// A local server that speaks OpenAI's embeddings protocol (POST /v1/embeddings), so EMBEDDING_MODEL's provider code runs
// over real HTTP. Its vectors know a few synonyms: words of one group (weekday, friday, monday …) share a dimension,
// so a question and a fact with no word in common can still be near, as a real embedding model makes them; other
// words are hashed to the remaining dimensions. It can be made to fail (HTTP 500), and counts what it was sent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const GROUPS = [
  ['weekday', 'weekdays', 'monday', 'mondays', 'tuesday', 'friday', 'fridays', 'day', 'days'],
  ['off', 'leave', 'skip', 'holiday', 'vacation', 'pto', 'rest'],
  ['manager', 'boss', 'report', 'reports', 'supervisor', 'lead'],
  ['seat', 'aisle', 'window', 'fly', 'flight', 'flights'],
  ['food', 'vegetarian', 'eat', 'meal', 'meals', 'diet', 'dietary'],
];
const DIMENSIONS = 32;

export function embedding(text: string): number[] {
  const v = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const group = GROUPS.findIndex((g) => g.includes(word));
    let hash = 0;
    for (const c of word) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
    v[group >= 0 ? group : GROUPS.length + (hash % (DIMENSIONS - GROUPS.length))]! += 1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

export interface FakeEmbeddings {
  /** For OPENAI_BASE_URL: `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  /** Texts embedded so far, in order. */
  inputs: string[];
  /** While true, every request is answered 500. */
  failing: boolean;
  close(): Promise<void>;
}

export async function startFakeEmbeddings(): Promise<FakeEmbeddings> {
  const state = { inputs: [] as string[], failing: false };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/embeddings')) {
        res.writeHead(404).end();
        return;
      }
      if (state.failing) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'the embedding model is down', type: 'server_error' } }));
        return;
      }
      const { input, model } = JSON.parse(body) as { input: string | string[]; model: string };
      const texts = Array.isArray(input) ? input : [input];
      state.inputs.push(...texts);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          model,
          data: texts.map((t, index) => ({ object: 'embedding', index, embedding: embedding(t) })),
          usage: {
            prompt_tokens: texts.join(' ').split(/\s+/).length,
            total_tokens: texts.join(' ').split(/\s+/).length,
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
