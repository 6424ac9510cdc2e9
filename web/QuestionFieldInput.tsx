// One field of a tool's form question as an input fitting its schema: a text box (e-mail, URL, date inputs by
// format), a number box, a checkbox, a select for one choice (enum, titled oneOf), checkboxes for several (items'
// enum or anyOf); and the form's values as the content the tool wants (numbers as numbers, blanks left out).
import { useId } from 'react';
import { fieldChoices } from '../core/tool-questions';
import type { QuestionField, ToolQuestion } from './api';

/** What an input holds: text for text and number boxes and selects, a flag for a checkbox, picks for several. */
export type RawValue = string | boolean | string[];
type Schema = NonNullable<ToolQuestion['schema']>;
type Content = Record<string, string | number | boolean | string[]>;

/** The values a field takes, each with its label (the value itself when it has none). */
export function choicesOf(field: QuestionField): { value: string; title: string }[] {
  return fieldChoices(field).map((c) => ({ value: c.value, title: c.title ?? c.value }));
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
