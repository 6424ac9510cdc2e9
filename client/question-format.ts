// A running tool's question (core/tool-questions.ts) as a terminal shows it: a form field by field (title,
// description, type, choices, default, required), the link of a URL question, the prompt a sampling request would
// send to our model; and how to answer it from the shell.
import { fieldChoices, type QuestionField, type ToolQuestion } from '../core/tool-questions';

/** The question's details, below the reply's "<tool> asks: <message>"; with the id, the `agent answer` line too. */
export function formatQuestion(question: ToolQuestion, conversationId?: string): string {
  const lines: string[] = [];
  if (question.delegate)
    lines.push(`  asked by ${question.delegate.agentName} (delegate ${question.delegate.childId})`);
  if (question.kind === 'form') {
    const required = new Set(question.schema?.required ?? []);
    for (const [name, field] of Object.entries(question.schema?.properties ?? {}))
      lines.push(`  ${fieldLine(name, field, required.has(name))}`);
  } else if (question.kind === 'url') {
    lines.push(`  open: ${question.url ?? '(no link given)'}`);
  } else if (question.sampling) {
    const { prompt, systemPrompt, maxTokens } = question.sampling;
    lines.push(`  ${question.server} wants our model to answer (at most ${maxTokens} tokens):`);
    if (systemPrompt) lines.push(`    system: ${systemPrompt}`);
    lines.push(...prompt.split('\n').map((line) => `    ${line}`));
  }
  lines.push(`  question id: ${question.id}`);
  if (conversationId) lines.push(`  answer: ${answerHint(question, conversationId)}`);
  return lines.join('\n');
}

/** One form field: `name* (Title): description [string, one of Dr|Ms|Mr, default Dr]` (`*`: required). */
export function fieldLine(name: string, field: QuestionField, required: boolean): string {
  const title = field.title && field.title !== name ? ` (${field.title})` : '';
  const about = field.description ? `: ${field.description}` : '';
  return `${name}${required ? '*' : ''}${title}${about} [${fieldFacts(field).join(', ')}]`;
}

/** The field's type and what it takes: choices (with their labels), format, bounds, default. */
export function fieldFacts(field: QuestionField): string[] {
  const options = fieldChoices(field)
    .map((o) => (o.title && o.title !== o.value ? `${o.value} (${o.title})` : o.value))
    .join(' | ');
  // Several choices read as "any of …" (comma-separated when typed); one choice as its type and "one of …".
  const facts: string[] =
    field.type === 'array'
      ? [options ? `any of ${options}` : 'list, comma-separated']
      : [field.type, ...(options ? [`one of ${options}`] : [])];
  if (field.format) facts.push(field.format);
  if (field.minimum !== undefined || field.maximum !== undefined)
    facts.push(`${field.minimum ?? '…'} to ${field.maximum ?? '…'}`);
  if (field.minLength !== undefined || field.maxLength !== undefined)
    facts.push(`${field.minLength ?? 0} to ${field.maxLength ?? '…'} characters`);
  if (field.default !== undefined) facts.push(`default ${showValue(field.default)}`);
  return facts;
}

export function showValue(value: unknown): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}

function answerHint(question: ToolQuestion, id: string): string {
  const accept =
    question.kind === 'form'
      ? Object.keys(question.schema?.properties ?? {})
          .map((name) => `--accept ${name}=…`)
          .join(' ')
      : '--accept';
  return `agent answer ${id} ${accept} · --decline · --cancel`;
}
