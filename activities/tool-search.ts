// SearchTools: ranks a goal's tools for a query by name, description, MCP server, category and argument names
// (MiniSearch: BM25 with prefix and fuzzy matching); no embeddings service is needed. A local activity over the tools
// the conversation resolved: the same query over the same catalog gives the same answer, and the answer is recorded
// in the history (a marker), so a replay never searches again. (In the workflow itself the library cost every cached
// conversation memory: measured, see bench/README.md.)
import MiniSearch from 'minisearch';
import type { JsonSchema, ToolMatch, ToolSpec } from '../core/types';

/** Most matches one search returns; the LLM may ask for fewer. */
export const MAX_MATCHES = 10;
export const DEFAULT_MATCHES = 5;

interface Indexed {
  id: number;
  name: string;
  description: string;
  server: string;
  category: string;
  args: string;
}

/** An index over one set of tools; build once per catalog version and search it many times. */
export class ToolIndex {
  private readonly search: MiniSearch<Indexed>;

  constructor(private readonly tools: ToolSpec[]) {
    this.search = new MiniSearch<Indexed>({
      fields: ['name', 'description', 'server', 'category', 'args'],
      storeFields: [],
      tokenize: (text) => words(text),
      processTerm: stem,
      searchOptions: {
        boost: { name: 3, server: 1.5, category: 1.5, description: 1, args: 0.5 },
        prefix: true,
        fuzzy: 0.2,
        combineWith: 'OR',
      },
    });
    this.search.addAll(
      tools.map((t, id) => ({
        id,
        name: t.name,
        description: t.description,
        server: t.mcp?.server ?? t.http?.api ?? '',
        category: t.category,
        args: argumentText(t.inputSchema),
      })),
    );
  }

  /** The best `limit` tools for `query`, best first; equal scores in catalog order, so the answer is stable. */
  find(query: string, limit = DEFAULT_MATCHES): ToolMatch[] {
    const n = Math.max(1, Math.min(MAX_MATCHES, Math.floor(limit)));
    // A query that is a tool's own name (`repos/get`, `fx__convert`, an operationId) finds that tool first: words
    // alone rank a long name sharing them (`repos_get-repo-rule-suite`) above it.
    const named = nameKey(query);
    const exact = this.tools.findIndex(
      (t) => nameKey(t.name) === named || nameKey(t.name.split('__').pop()!) === named,
    );
    const ranked = this.search
      .search(expand(query))
      .sort((a, b) => b.score - a.score || (a.id as number) - (b.id as number))
      .map((r) => r.id as number)
      .filter((id) => id !== exact);
    return [...(exact >= 0 ? [exact] : []), ...ranked].slice(0, n).map((id) => {
      const t = this.tools[id]!;
      return {
        name: t.name,
        description: t.description,
        ...(t.mcp || t.http ? { server: t.mcp?.server ?? t.http!.api } : {}),
        inputSchema: t.inputSchema,
      };
    });
  }
}

/** A name with its separators (`/`, `-`, `_`, `.`, spaces) made one, in lower case: `repos/get` ~ `repos_get`. */
function nameKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '_');
}

/**
 * The verbs tool names use, and the words people say for them: a request says "send", "open" or "book" where the
 * tool says create. The query gains the tool's verb beside the user's word.
 */
const VERB_SYNONYMS: Record<string, string[]> = {
  create: [
    'add',
    'new',
    'make',
    'open',
    'post',
    'send',
    'build',
    'define',
    'request',
    'invite',
    'schedule',
    'submit',
    'write',
    'start',
    'book',
    'publish',
    'issue',
  ],
  get: ['show', 'view', 'read', 'fetch', 'check', 'review', 'track', 'details', 'what', 'which'],
  list: ['all', 'every', 'browse', 'overview'],
  update: ['change', 'edit', 'modify', 'rename', 'set', 'share', 'move', 'assign', 'tag'],
  delete: ['remove', 'cancel', 'drop', 'erase', 'destroy'],
  search: ['find', 'lookup', 'look', 'query', 'filter'],
  archive: ['close', 'hide', 'resolve'],
  export: ['download', 'backup'],
  import: ['upload', 'load', 'bulk'],
};
const VERB_OF = new Map(Object.entries(VERB_SYNONYMS).flatMap(([verb, said]) => said.map((w) => [w, verb] as const)));

function expand(query: string): string {
  const verbs = words(query).flatMap((w) => VERB_OF.get(w.toLowerCase()) ?? []);
  return [query, ...new Set(verbs)].join(' ');
}

/** Words of a name or a sentence: `calendar_create_event`, `getPullRequest` and prose alike. */
function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
}

/** Words that say nothing about what a tool does. */
const STOP_WORDS = new Set(
  'a an and are as at be by can do for from how i in is it me my of on or our the there this to us we with you your'.split(
    ' ',
  ),
);

/** Lower case and a light stem (plurals, -ing, -ed, a final e), so "invoices" finds "invoice" and "sharing" finds
 * "share"; stop words are dropped (null). */
function stem(term: string): string | null {
  let t = term.toLowerCase();
  if (STOP_WORDS.has(t)) return null;
  if (t.length > 5 && t.endsWith('ing')) t = t.slice(0, -3);
  else if (t.length > 4 && t.endsWith('ed')) t = t.slice(0, -2);
  else if (t.length > 4 && t.endsWith('ies')) t = `${t.slice(0, -3)}y`;
  else if (t.length > 3 && t.endsWith('s') && !t.endsWith('ss')) t = t.slice(0, -1);
  if (t.length > 4 && t.endsWith('e')) t = t.slice(0, -1);
  return t;
}

function argumentText(schema: JsonSchema): string {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties)
    .map(([name, p]) => `${name} ${typeof p.description === 'string' ? p.description : ''}`)
    .join(' ');
}

/** Indexes by catalog (the tools' names), most recent first: a conversation searches the same catalog again and again. */
export class ToolIndexCache {
  private readonly entries: { key: string; index: ToolIndex }[] = [];

  constructor(private readonly size = 8) {}

  search(tools: ToolSpec[], query: string, limit?: number): ToolMatch[] {
    const key = tools.map((t) => `${t.name}\u0000${t.description}`).join('\u0001');
    let entry = this.entries.find((e) => e.key === key);
    if (!entry) {
      entry = { key, index: new ToolIndex(tools) };
      this.entries.unshift(entry);
      this.entries.length = Math.min(this.entries.length, this.size);
    }
    return entry.index.find(query, limit);
  }
}
