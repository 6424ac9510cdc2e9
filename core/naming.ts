// How goals and endpoints are matched by name: categories compare loosely (`Human Resources` is `human-resources`),
// tool and server names by shell-style globs. Shared by goals/ and mcp/, so neither imports the other for it.

/** A category as it is compared: trimmed, lowercase, spaces as dashes. */
export function normaliseCategory(category: string): string {
  return category.trim().toLowerCase().replace(/\s+/g, '-');
}

/** Shell-style globs (`*`, `?`), case-sensitive, whole string. */
export function globMatch(pattern: string, value: string): boolean {
  const re = new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
  return re.test(value);
}
