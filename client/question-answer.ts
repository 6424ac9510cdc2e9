// What a user types for a form field, as the value the tool's schema wants: numbers as numbers, yes/no as booleans,
// a choice by its value, its label or its number in the list, several choices comma-separated. The workflow checks
// the whole answer against the schema (core/check-args.ts); this only turns words into values, saying what is wrong.
import type { QuestionField, ToolQuestion } from '../core/tool-questions';
import { fieldChoices } from '../core/tool-questions';
import { UserError } from '../core/user-error';

export type FieldValue = string | number | boolean | string[];

/** The value of `text` for the field, or a sentence saying what it should be. */
export function parseFieldValue(field: QuestionField, text: string): { value: FieldValue } | { problem: string } {
  const word = text.trim();
  const options = fieldChoices(field);
  const pick = (w: string): string | null => {
    const n = Number(w);
    if (Number.isInteger(n) && n >= 1 && n <= options.length) return options[n - 1]!.value;
    const found = options.find((o) => o.value === w || o.title?.toLowerCase() === w.toLowerCase());
    return found ? found.value : null;
  };
  const listed = options.map((o) => o.value).join(', ');
  switch (field.type) {
    case 'number':
    case 'integer': {
      const n = Number(word);
      if (!word || Number.isNaN(n)) return { problem: `a ${field.type} is wanted, not "${word}"` };
      if (field.type === 'integer' && !Number.isInteger(n)) return { problem: `a whole number is wanted, not ${n}` };
      return { value: n };
    }
    case 'boolean': {
      if (/^(y|yes|true|1)$/i.test(word)) return { value: true };
      if (/^(n|no|false|0)$/i.test(word)) return { value: false };
      return { problem: `yes or no is wanted, not "${word}"` };
    }
    case 'array': {
      const words = word ? word.split(',').map((w) => w.trim()) : [];
      if (!options.length) return { value: words };
      const picked = words.map(pick);
      const bad = words.filter((_, i) => picked[i] === null);
      if (bad.length) return { problem: `${bad.join(', ')}: not among ${listed}` };
      return { value: picked as string[] };
    }
    default: {
      if (!options.length) return { value: text };
      const chosen = pick(word);
      return chosen === null ? { problem: `"${word}" is not among ${listed}` } : { value: chosen };
    }
  }
}

/** `--accept name=Ada --accept title=Dr` as the form's content, each value as its field wants it. */
export function contentFromPairs(question: ToolQuestion, pairs: string[]): Record<string, FieldValue> {
  const fields = question.schema?.properties ?? {};
  const content: Record<string, FieldValue> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new UserError(`--accept takes name=value, not "${pair}"`);
    const name = pair.slice(0, eq);
    const field = fields[name];
    if (!field)
      throw new UserError(`the form has no field "${name}" (it has: ${Object.keys(fields).join(', ') || 'none'})`);
    const parsed = parseFieldValue(field, pair.slice(eq + 1));
    if ('problem' in parsed) throw new UserError(`${name}: ${parsed.problem}`);
    content[name] = parsed.value;
  }
  return content;
}
