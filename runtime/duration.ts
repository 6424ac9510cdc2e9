// Durations as settings and commands take them: `90` or `90s`, `15m`, `24h`, `7d`.
import { UserError } from '../core/user-error';

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3_600, d: 86_400 };

/** Seconds, or NaN when `text` is not such a duration. */
export function parseDuration(text: string): number {
  const m = /^(\d+)\s*([smhd]?)$/i.exec(text.trim());
  return m ? Number(m[1]) * UNIT_SECONDS[(m[2] || 's').toLowerCase()]! : NaN;
}

/** `90s`, `15m`, `24h`, `7d` (a bare number is seconds) → seconds; `option` is named when it is not a duration. */
export function parseAge(text: string, option = '--older-than'): number {
  const seconds = parseDuration(text);
  if (Number.isNaN(seconds))
    throw new UserError(`${option} must be a duration such as 90s, 15m, 24h or 7d, got "${text}"`);
  return seconds;
}
