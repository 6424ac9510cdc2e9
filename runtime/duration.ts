// Durations as settings and commands take them: `90` or `90s`, `15m`, `24h`, `7d`.
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3_600, d: 86_400 };

/** Seconds, or NaN when `text` is not such a duration. */
export function parseDuration(text: string): number {
  const m = /^(\d+)\s*([smhd]?)$/i.exec(text.trim());
  return m ? Number(m[1]) * UNIT_SECONDS[(m[2] || 's').toLowerCase()]! : NaN;
}
