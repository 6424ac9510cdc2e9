// `agent memory list | search | show | add | edit | keep | delete | export | import`: an owner's memories
// (docs/memory.md),
// answered by the worker that keeps them (AgentClient.memory). `--owner` says whose (the CLI user is `local`); the
// CLI talks to Temporal as an operator does, so `--all` lists every owner's.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Memory, MemoryRequest } from '../core/memory';
import { sourceWords } from '../core/memory';
import { LOCAL_OWNER } from '../core/blobs';
import { UserError } from '../core/user-error';
import type { AgentClient } from './agent-client';

export const MEMORY_USAGE =
  'usage: agent memory list [--owner <o>|--all] | search "<words>" | show <id> | add "<fact>" [--tag <t> …] ' +
  '[--goal <id>] | edit <id> ["<fact>"] [--tag <t> …] | keep <id> (a proposed one) | delete <id> (dismisses a ' +
  'proposed one) | export [> file.json] | import <file.json>';

export async function memoryCommand(
  argv: string[],
  connect: () => Promise<AgentClient>,
): Promise<{ human: string; data: unknown }> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      owner: { type: 'string' },
      all: { type: 'boolean', default: false },
      tag: { type: 'string', multiple: true },
      goal: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const [op, arg, more] = positionals;
  const owner = values.all ? null : (values.owner ?? LOCAL_OWNER);
  const limit = values.limit ? Number(values.limit) : undefined;
  const needs = (what: string) => {
    if (!arg) throw new UserError(`memory ${op} needs ${what}. ${MEMORY_USAGE}`);
    return arg;
  };
  let req: MemoryRequest;
  switch (op) {
    case 'list':
      req = { owner, op, ...(limit ? { limit } : {}) };
      break;
    case 'search':
      req = { owner, op, query: needs('the words to find'), ...(limit ? { limit } : {}) };
      break;
    case 'show':
    case 'keep':
    case 'delete':
      req = { owner, op, id: needs('a memory id') };
      break;
    case 'add':
      req = { owner, op, text: needs('the fact'), tags: values.tag, goalId: values.goal ?? null, via: 'cli' };
      break;
    case 'edit':
      req = {
        owner,
        op,
        id: needs('a memory id'),
        ...(more ? { text: more } : {}),
        ...(values.tag ? { tags: values.tag } : {}),
      };
      break;
    case 'export':
      req = { owner, op };
      break;
    case 'import': {
      let memories: Memory[];
      try {
        const parsed = JSON.parse(readFileSync(needs('a file exported before'), 'utf8')) as { memories?: Memory[] };
        memories = Array.isArray(parsed) ? parsed : (parsed.memories ?? []);
      } catch (err) {
        throw new UserError(`memory import ${arg}: ${(err as Error).message}`);
      }
      req = { owner, op, memories };
      break;
    }
    default:
      throw new UserError(MEMORY_USAGE);
  }
  const answer = await (await connect()).memory(req);
  if ('memories' in answer) {
    if (op === 'export') return { human: JSON.stringify(answer, null, 2), data: answer };
    return { human: answer.memories.map(line).join('\n') || 'no memories', data: answer };
  }
  if ('memory' in answer) {
    const uses =
      'uses' in answer ? answer.uses.map((u) => `  used by ${u.conversationId} (${u.goalId}), last ${u.lastAt}`) : [];
    return { human: [line(answer.memory), ...uses].join('\n'), data: answer };
  }
  if ('deleted' in answer) return { human: `memory ${answer.deleted} deleted`, data: answer };
  return { human: `${answer.imported} memories imported`, data: answer };
}

/** `mem_… [owner] "fact" #tag (date, source)`; a proposal not kept yet says so: `agent memory keep` keeps it. */
function line(m: Memory): string {
  const tags = m.tags.map((t) => ` #${t}`).join('');
  const agent = m.goalId ? ` (${m.goalId} only)` : '';
  const proposed = m.proposed ? ' (proposed: keep or delete it)' : '';
  const when = `${m.createdAt.slice(0, 10)}, ${sourceWords(m.source)}`;
  return `${m.id} [${m.owner}] ${JSON.stringify(m.text)}${tags}${agent}${proposed} — ${when}`;
}
