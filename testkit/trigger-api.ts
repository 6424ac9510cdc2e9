// The HTTP API with webhook triggers, for tests and the bench: open (no API keys), on a free loopback port, its
// triggers from `file`; and a delivery as a sender makes one, signed with the trigger's style.
import { startApi, type RunningApi } from '../api/server';
import { signDelivery } from '../api/triggers/signatures';
import type { SignatureStyle } from '../api/triggers/trigger-registry';
import type { AgentClient } from '../client/agent-client';
import type { StreamBus } from '../stream/bus';

export function startTriggerApi(
  agents: AgentClient,
  bus: StreamBus,
  triggers: { file: string; maxBytes?: number },
): Promise<RunningApi> {
  return startApi({
    agents,
    bus,
    defaultGoal: 'goal_general',
    settings: {
      port: 0,
      host: '127.0.0.1',
      keys: null,
      bodyLimitBytes: 64 * 1024,
      corsOrigins: [],
      triggers: { file: triggers.file, maxBytes: triggers.maxBytes ?? 64 * 1024 },
    },
  });
}

/** POSTs `raw` to the trigger, signed now (or at `at`) with `secret`; `headers` adds the sender's own. */
export async function sendDelivery(
  apiUrl: string,
  name: string,
  style: SignatureStyle,
  secret: string,
  raw: string,
  opts: { headers?: Record<string, string>; at?: number } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${apiUrl}/api/triggers/${name}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...signDelivery(style, secret, raw, opts.at ?? Date.now()),
      ...opts.headers,
    },
    body: raw,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
