// DNS rebinding protection for /mcp when the API runs without keys (bound to loopback, answering anyone on this
// machine): a web page whose host name an attacker re-points at 127.0.0.1 would otherwise drive our agents from the
// user's browser. Such a request names a foreign Host (and Origin); local clients name a loopback one.

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Why the request is refused, or null when its Host and Origin (if any) are this machine. */
export function rebindingRefusal(headers: Headers): string | null {
  const host = headers.get('host');
  if (!host || !LOOPBACK.has(hostname(host)))
    return `Host ${host ?? '(none)'} is not this machine; without API_KEYS the MCP server answers local clients only.`;
  const origin = headers.get('origin');
  if (origin && !isLoopbackOrigin(origin))
    return `Origin ${origin} is not this machine; without API_KEYS the MCP server answers local clients only.`;
  return null;
}

/** `127.0.0.1:8080` → `127.0.0.1`, `[::1]:8080` → `[::1]`. */
function hostname(host: string): string {
  const h = host.trim().toLowerCase();
  return h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.split(':')[0]!;
}

function isLoopbackOrigin(origin: string): boolean {
  try {
    return LOOPBACK.has(new URL(origin).hostname.toLowerCase());
  } catch {
    return false;
  }
}
