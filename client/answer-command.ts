// `agent answer <id> --accept name=Ada --accept title=Dr | --decline | --cancel`: the answer to the question a
// running tool asks, built against the question open now (its fields say how each value is read).
import type { AnsweredQuestion } from '../core/tool-questions';
import type { AgentClient } from './agent-client';
import { contentFromPairs } from './question-answer';
import { UserError } from '../core/user-error';

interface AnswerOptions {
  accept?: string[];
  decline?: boolean;
  cancel?: boolean;
  question?: string;
}

/** A bare `--accept` (a URL or sampling question: nothing to fill) as `--accept=`, which parseArgs can read. */
export function bareAccept(argv: string[]): string[] {
  return argv.map((arg, i) =>
    arg === '--accept' && (i + 1 >= argv.length || argv[i + 1]!.startsWith('--')) ? '--accept=' : arg,
  );
}

export async function answerFrom(client: AgentClient, id: string, opts: AnswerOptions): Promise<AnsweredQuestion> {
  const actions = (['accept', 'decline', 'cancel'] as const).filter((a) => Boolean(opts[a]));
  if (actions.length !== 1) throw new UserError('answer needs one of --accept [name=value]..., --decline or --cancel');
  const action = actions[0]!;
  const question = (await client.feed(id, Number.MAX_SAFE_INTEGER)).question ?? null;
  if (!question) throw new UserError(`No tool is asking anything in conversation ${id}.`, 'refused');
  const questionId = opts.question ?? question.id;
  if (action !== 'accept') return { questionId, answer: { action } };
  const pairs = (opts.accept ?? []).filter((p) => p !== '');
  if (question.kind !== 'form') {
    if (pairs.length) throw new UserError(`${question.tool} asks no form: answer with a bare --accept`);
    return { questionId, answer: { action: 'accept' } };
  }
  return { questionId, answer: { action: 'accept', content: contentFromPairs(question, pairs) } };
}
