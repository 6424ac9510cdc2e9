// Shipped example (HOOKS=pii-redaction): e-mail addresses and phone numbers become [email] and [phone] before the
// model sees them, in the user's messages and in what tools answer. The transcript keeps the redacted form and a
// line saying how many were redacted (never what they were). Patterns, not a classifier: good for the common forms,
// not a guarantee; see docs/hooks.md.
import { defineHook } from '../core/hooks';

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
/** Digits with the separators phone numbers are written with; isPhone decides. */
const PHONE_LIKE = /(?<![\w@+])(?:\+|\()?\d[\d ().-]{5,}\d(?![\w@])/g;

/** A candidate is a phone number when its digits and groups look like one, and not like a date, range or amount. */
function isPhone(text: string): boolean {
  const digits = text.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 15) return false;
  if (/^\d{4}-\d{1,2}-\d{1,2}$/.test(text) || /^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$/.test(text)) return false;
  if (/^\d+(\.\d+)?$/.test(text)) return false;
  if (text.startsWith('+') || text.startsWith('(')) return true;
  const groups = text.split(/[\s().-]+/).filter(Boolean);
  return groups.length >= 3 || (groups.length === 2 && digits.length >= 10);
}

export interface Redaction {
  text: string;
  emails: number;
  phones: number;
}

export function redact(text: string): Redaction {
  let emails = 0;
  let phones = 0;
  const out = text
    .replace(EMAIL, () => {
      emails++;
      return '[email]';
    })
    .replace(PHONE_LIKE, (match) => {
      // A match may carry a space or a bracket it does not need at either end.
      const trimmed = match.trim();
      if (!isPhone(trimmed)) return match;
      phones++;
      return match.replace(trimmed, '[phone]');
    });
  return { text: out, emails, phones };
}

/** Every string in a JSON value redacted, keys and binary data (`data`, base64) left alone. */
function redactDeep(value: unknown, count: { emails: number; phones: number }): unknown {
  if (typeof value === 'string') {
    const r = redact(value);
    count.emails += r.emails;
    count.phones += r.phones;
    return r.text;
  }
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, count));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, k === 'data' || k === 'stored' ? v : redactDeep(v, count)]),
    );
  }
  return value;
}

function said({ emails, phones }: { emails: number; phones: number }): string {
  const parts = [
    emails ? `${emails} e-mail address${emails === 1 ? '' : 'es'}` : '',
    phones ? `${phones} phone number${phones === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  return `${parts.join(' and ')} redacted`;
}

export default defineHook({
  name: 'pii-redaction',
  description: 'E-mail addresses and phone numbers become [email] and [phone] before the model sees them.',
  on: ['userMessage', 'afterToolCall'],
  run(event) {
    if (event.point === 'userMessage') {
      const r = redact(event.text);
      if (!r.emails && !r.phones) return;
      return { rewrite: { text: r.text }, note: said(r) };
    }
    const count = { emails: 0, phones: 0 };
    const outcome = redactDeep(event.outcome, count) as typeof event.outcome;
    if (!count.emails && !count.phones) return;
    return { rewrite: { outcome }, note: said(count) };
  },
});
