// `${env:NAME}` references in endpoint entries (MCP servers, HTTP APIs): resolved only inside the worker, just before
// a connection, a document fetch or a call, so a secret never sits in the registry file, a history or a log.
export const ENV_REF = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** `${env:NAME}` substitution in the worker: the values used (secrets to scrub) and the names it lacked. */
export function envResolver(env: NodeJS.ProcessEnv) {
  const secrets: string[] = [];
  const missing = new Set<string>();
  const sub = (s: string) =>
    s.replace(ENV_REF, (_, variable: string) => {
      const value = env[variable];
      if (value === undefined) {
        missing.add(variable);
        return '';
      }
      if (value) secrets.push(value);
      return value;
    });
  const subRecord = (r: Record<string, string>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, sub(v)]));
  /** Throws, naming every variable the worker lacks. */
  const check = () => {
    if (missing.size > 0) {
      throw new Error(`needs the environment variable(s) ${[...missing].join(', ')}, which the worker does not have`);
    }
  };
  return { sub, subRecord, secrets, check };
}
