// The interactive chat asks the user a running tool's question: a form field by field (Enter keeps the default; the
// words "decline" or "cancel" answer so at any field), a URL question by whether they went, a sampling request by
// whether our model may answer it. The answer is checked against the form's schema before it is sent, with the
// checker the workflow runs, so a mistake is asked again here instead of coming back as a refusal.
import { formProblems, type AnsweredQuestion, type QuestionAnswer, type ToolQuestion } from '../core/tool-questions';
import { parseFieldValue, type FieldValue } from './question-answer';
import { fieldFacts } from './question-format';

type Ask = (prompt: string) => Promise<string | null>;

/** The user's answer, or null when input ended. */
export async function askQuestion(
  question: ToolQuestion,
  ask: Ask,
  print: (s: string) => void,
): Promise<AnsweredQuestion | null> {
  const answer = await answerOf(question, ask, print);
  return answer && { questionId: question.id, answer };
}

async function answerOf(question: ToolQuestion, ask: Ask, print: (s: string) => void): Promise<QuestionAnswer | null> {
  if (question.kind === 'form') return askForm(question, ask, print);
  const prompt =
    question.kind === 'url'
      ? 'did you open the link and do what it asks? [y]es / [n]o (decline) / [c]ancel: '
      : 'let our model answer it? [y]es / [n]o (decline) / [c]ancel: ';
  for (;;) {
    const word = await ask(prompt);
    if (word === null) return null;
    const action = yesNo(word);
    if (action) return { action };
    print('Answer y, n or c.');
  }
}

async function askForm(question: ToolQuestion, ask: Ask, print: (s: string) => void): Promise<QuestionAnswer | null> {
  const schema = question.schema ?? { type: 'object' as const, properties: {} };
  const required = new Set(schema.required ?? []);
  print('(Enter keeps the default or leaves a field out; "decline" or "cancel" answers so)');
  for (;;) {
    const content: Record<string, FieldValue> = {};
    for (const [name, field] of Object.entries(schema.properties)) {
      const label = `${field.title ?? name}${required.has(name) ? '*' : ''} [${fieldFacts(field).join(', ')}]`;
      if (field.description) print(`  ${field.description}`);
      for (;;) {
        const text = await ask(`${label}: `);
        if (text === null) return null;
        if (text === 'decline' || text === 'cancel') return { action: text };
        if (!text) {
          if (field.default !== undefined) content[name] = field.default as FieldValue;
          else if (required.has(name)) {
            print(`${field.title ?? name} is required.`);
            continue;
          }
          break;
        }
        const parsed = parseFieldValue(field, text);
        if ('value' in parsed) {
          content[name] = parsed.value;
          break;
        }
        print(parsed.problem);
      }
    }
    const { problems } = formProblems(schema, content);
    if (!problems.length) return { action: 'accept', content };
    print(`That does not fit: ${problems.join(' ')} Once more:`);
  }
}

function yesNo(word: string): QuestionAnswer['action'] | null {
  if (/^(y|yes)$/i.test(word)) return 'accept';
  if (/^(n|no|decline)$/i.test(word)) return 'decline';
  if (/^(c|cancel)$/i.test(word)) return 'cancel';
  return null;
}
