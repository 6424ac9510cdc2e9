// The kinds of value a setting (an environment variable) may hold, each read with an error that names the setting
// and shows what it got: a flag, a whole number, a cache size, a duration, an amount of dollars.
import { z } from 'zod';
import { parseDuration } from '../runtime/duration';

export const flag = (name: string, fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      const s = v.trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(s)) return true;
      if (['0', 'false', 'no', 'off'].includes(s)) return false;
      ctx.addIssue({ code: 'custom', message: `${name} must be true or false, got "${v}"` });
      return z.NEVER;
    });

export const count = (name: string, fallback: number, min: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a whole number ≥ ${min}, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

/** The SDK takes 0 (no cache) or at least 2. */
export const cacheSize = (name: string, fallback: number) =>
  count(name, fallback, 0).refine((n) => n !== 1, { message: `${name} must be 0 (no cache) or at least 2, got "1"` });

/** A duration in seconds: `90`, `90s`, `15m`, `24h` or `7d`. */
export const duration = (name: string, fallback: number, min: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      const seconds = parseDuration(v);
      if (!(seconds >= min)) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be a duration of at least ${min} s such as 90s, 15m, 24h or 7d, got "${v}"`,
        });
        return z.NEVER;
      }
      return seconds;
    });

/** A positive amount of US dollars, e.g. `0.50`. */
export const dollars = (name: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return undefined;
      const n = Number(v.trim().replace(/^\$/, ''));
      if (!Number.isFinite(n) || n <= 0) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be an amount of US dollars above 0, e.g. 0.50, got "${v}"`,
        });
        return z.NEVER;
      }
      return n;
    });
