// One field of a tool's form question as an input fitting its schema: a text box (e-mail, URL, date inputs by
// format), a number box, a checkbox, a select for one choice (enum, titled oneOf), checkboxes for several (items'
// enum or anyOf); and the form's values as the content the tool wants (numbers as numbers, blanks left out).
import { useId } from 'react';
import type { QuestionField, ToolQuestion } from './api';

/** What an input holds: text for text and number boxes and selects, a flag for a checkbox, picks for several. */
export type RawValue = string | boolean | string[];
type Schema = NonNullable<ToolQuestion['schema']>;
type Content = Record<string, string | number | boolean | string[]>;

/** The values a field takes, each with its label. */
export function choicesOf(field: QuestionField): { value: string; title: string }[] {
  if (field.oneOf?.length) return field.oneOf.map((o) => ({ value: o.const, title: o.title ?? o.const }));
  if (field.enum?.length) return field.enum.map((v, i) => ({ value: v, title: field.enumNames?.[i] ?? v }));
  if (field.items?.anyOf?.length) return field.items.anyOf.map((o) => ({ value: o.const, title: o.title ?? o.const }));
  return (field.items?.enum ?? []).map((v) => ({ value: v, title: v }));
}

/** The field's default, as its input holds it. */
export function initialValue(field: QuestionField): RawValue {
  if (field.type === 'boolean') return field.default === true;
  if (field.type === 'array') return Array.isArray(field.default) ? field.default.map(String) : [];
  return field.default === undefined ? '' : String(field.default);
}

/** The form's content: blanks and empty lists left out (a required one is then reported missing). */
export function toContent(schema: Schema, values: Record<string, RawValue>): Content {
  const content: Content = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    const v = values[name];
    if (typeof v === 'boolean') content[name] = v;
    else if (Array.isArray(v)) {
      if (v.length) content[name] = v;
    } else if (v !== undefined && v.trim() !== '') {
      const n = Number(v);
      content[name] = field.type === 'number' || field.type === 'integer' ? (Number.isNaN(n) ? v : n) : v;
    }
  }
  return content;
}

/** What the schema bounds that the type check does not: how many picks, a string's length, a number's range. */
export function boundsProblems(schema: Schema, content: Content): string[] {
  const found: string[] = [];
  for (const [name, field] of Object.entries(schema.properties)) {
    const v = content[name];
    const label = field.title ?? name;
    if (Array.isArray(v)) {
      if (field.minItems !== undefined && v.length < field.minItems)
        found.push(`${label}: pick at least ${field.minItems}.`);
      if (field.maxItems !== undefined && v.length > field.maxItems)
        found.push(`${label}: pick at most ${field.maxItems}.`);
    } else if (typeof v === 'number') {
      if (field.minimum !== undefined && v < field.minimum) found.push(`${label}: at least ${field.minimum}.`);
      if (field.maximum !== undefined && v > field.maximum) found.push(`${label}: at most ${field.maximum}.`);
    } else if (typeof v === 'string') {
      if (field.minLength !== undefined && v.length < field.minLength)
        found.push(`${label}: at least ${field.minLength} characters.`);
      if (field.maxLength !== undefined && v.length > field.maxLength)
        found.push(`${label}: at most ${field.maxLength} characters.`);
    }
  }
  return found;
}

const INPUT_TYPE: Record<string, string> = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' };

interface FieldProps {
  name: string;
  field: QuestionField;
  required: boolean;
  value: RawValue;
  disabled: boolean;
  onChange(value: RawValue): void;
}

export function QuestionFieldInput({ name, field, required, value, disabled, onChange }: FieldProps) {
  const id = useId();
  const label = (
    <>
      {field.title ?? name}
      {required && (
        <span className="required" aria-hidden="true">
          {' '}
          *
        </span>
      )}
    </>
  );
  const about = field.description ? (
    <p id={`${id}-about`} className="tool-about">
      {field.description}
    </p>
  ) : null;
  const common = {
    id,
    disabled,
    'aria-required': required || undefined,
    'aria-describedby': field.description ? `${id}-about` : undefined,
  };
  const choices = choicesOf(field);

  if (field.type === 'array') {
    const picked = new Set(value as string[]);
    return (
      <fieldset
        className="question-field"
        data-testid="question-field"
        data-field={name}
        aria-describedby={common['aria-describedby']}
      >
        <legend>{label}</legend>
        {about}
        {choices.map((c) => (
          <label key={c.value} className="check">
            <input
              type="checkbox"
              disabled={disabled}
              value={c.value}
              checked={picked.has(c.value)}
              onChange={(e) =>
                onChange(choices.map((o) => o.value).filter((v) => (v === c.value ? e.target.checked : picked.has(v))))
              }
            />{' '}
            {c.title}
          </label>
        ))}
      </fieldset>
    );
  }
  if (field.type === 'boolean') {
    return (
      <div className="question-field" data-testid="question-field" data-field={name}>
        <label className="check">
          <input {...common} type="checkbox" checked={value as boolean} onChange={(e) => onChange(e.target.checked)} />{' '}
          {label}
        </label>
        {about}
      </div>
    );
  }
  return (
    <div className="question-field" data-testid="question-field" data-field={name}>
      <label htmlFor={id}>{label}</label>
      {about}
      {choices.length ? (
        <select {...common} value={value as string} onChange={(e) => onChange(e.target.value)}>
          {(!required || field.default === undefined) && <option value="">—</option>}
          {choices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.title}
            </option>
          ))}
        </select>
      ) : (
        <input
          {...common}
          type={
            field.type === 'number' || field.type === 'integer' ? 'number' : (INPUT_TYPE[field.format ?? ''] ?? 'text')
          }
          step={field.type === 'integer' ? 1 : field.type === 'number' ? 'any' : undefined}
          min={field.minimum}
          max={field.maximum}
          minLength={field.minLength}
          maxLength={field.maxLength}
          value={value as string}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </div>
  );
}
