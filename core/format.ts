// Values as every side shows them (CLI, web chat, the agent's own messages), so they read the same everywhere.

/** `free` for nothing (the offline model is priced at 0), $0.0123 below a dollar (model calls cost fractions of a
 * cent), $12.35 above. */
export function formatUsd(usd: number): string {
  if (usd === 0) return 'free';
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}

/** A whole number of seconds in the largest unit that divides it: `2 days`, `3 h`, `15 min`, `90 s`. */
export function formatDuration(seconds: number): string {
  if (seconds % 86_400 === 0 && seconds > 86_400) return `${seconds / 86_400} days`;
  if (seconds % 3_600 === 0) return `${seconds / 3_600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** A JSON value on one line, cut to `max` characters with an ellipsis (example runs, reasons a draft failed). */
export function shortJson(value: unknown, max: number): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * A tool's description in one line, for people: its first sentence, at most `max` characters. Descriptions are
 * written for the model (AskAgent's lists every agent it may ask), too long for a card in a transcript.
 */
export function toolSummary(description: string, max = 140): string {
  const firstLine = description.trim().split('\n')[0] ?? '';
  const sentence = /^.*?[.!?](?=\s|$)/.exec(firstLine)?.[0] ?? firstLine;
  return sentence.length > max ? `${sentence.slice(0, max - 1).trimEnd()}…` : sentence;
}

/** `850 ms`, `1.2 s`, `14 s`, `2 min 5 s`, `1 h 4 min`; `—` for no figure. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  const n = Math.max(0, Math.round(ms));
  if (n < 1_000) return `${n} ms`;
  if (n < 9_950) return `${(n / 1_000).toFixed(1)} s`;
  const s = Math.round(n / 1_000);
  if (s < 60) return `${s} s`;
  if (s < 3_600) return s % 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s / 60} min`;
  const min = Math.round(s / 60);
  return min % 60 ? `${Math.floor(min / 60)} h ${min % 60} min` : `${min / 60} h`;
}
