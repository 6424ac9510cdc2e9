// `.env`: settings kept in a file instead of the shell (config/example.env is its template). Read by every entry
// point (npm start, npm run worker, the tool worker, the agent CLI) before anything reads the environment; a variable
// already set in the environment wins. Its values are then validated like the environment's (worker/worker-settings.ts).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const LINE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/;
/** A quoted value, then perhaps a comment. */
const QUOTED = /^(["'])(.*?)\1\s*(?:#.*)?$/;

/** The variables of a .env file: `NAME=value`, optional `export`, quotes, `#` comments. Throws naming the line. */
export function parseEnvFile(text: string, file = '.env'): Record<string, string> {
  const vars: Record<string, string> = {};
  text.split(/\r?\n/).forEach((raw, i) => {
    if (!raw.trim() || raw.trim().startsWith('#')) return;
    const m = LINE.exec(raw);
    if (!m) throw new Error(`${file} line ${i + 1}: expected NAME=value, got "${raw.trim().slice(0, 60)}"`);
    const value = unquote(m[2]!);
    if (value === null) throw new Error(`${file} line ${i + 1}: the quote in ${m[1]} is not closed`);
    vars[m[1]!] = value;
  });
  return vars;
}

/**
 * Fills `env` (process.env by default) with the variables of the .env file — `ENV_FILE`, else `.env` in the
 * current directory — that it does not set already. Returns the file read, or null when there is none.
 */
export function applyEnvFile(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string | null {
  const file = path.resolve(cwd, env.ENV_FILE ?? '.env');
  if (!existsSync(file)) {
    if (env.ENV_FILE) throw new Error(`ENV_FILE=${env.ENV_FILE}: no such file`);
    return null;
  }
  for (const [name, value] of Object.entries(parseEnvFile(readFileSync(file, 'utf8'), file))) {
    if (env[name] === undefined) env[name] = value;
  }
  return file;
}

/** The value without its quotes; null when a quote is not closed. */
function unquote(value: string): string | null {
  const quoted = QUOTED.exec(value);
  if (quoted) return quoted[1] === '"' ? quoted[2]!.replace(/\\n/g, '\n') : quoted[2]!;
  if (value.startsWith('"') || value.startsWith("'")) return null;
  // An unquoted value ends at a ` #` comment, as in config/example.env.
  return value.replace(/\s+#.*$/, '');
}
