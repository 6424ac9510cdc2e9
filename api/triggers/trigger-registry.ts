// The webhook triggers (config/triggers.json beside the endpoint registry; TRIGGERS_FILE): each names the goal a
// delivery starts a run of, the prompt the run gets (the delivery's JSON body comes as an attachment, never pasted
// in), how deliveries are signed and with which secret (`${env:NAME}`, never the secret itself), the approval policy
// and where the outcome goes. Read live: an edit serves the next delivery, a broken edit keeps the last good file.
import { z } from 'zod';
import { LiveFile } from '../../endpoints/live-file';
import { ENV_REF } from '../../endpoints/env-refs';
import type { UnattendedApprovals } from '../../core/conversation-types';
import { UNATTENDED_NAME } from '../../client/unattended';

/** The signature styles a trigger checks (api/triggers/signatures.ts). */
export const SIGNATURE_STYLES = ['github', 'stripe'] as const;
export type SignatureStyle = (typeof SIGNATURE_STYLES)[number];

/** deny, ask, or auto for the tools named (core/conversation-types.ts: UnattendedApprovals). */
export const APPROVALS = z.union([
  z.enum(['deny', 'ask']),
  z.strictObject({ auto: z.array(z.string().min(1)).min(1) }),
]);

const entry = z.strictObject({
  goal: z.string().min(1),
  /** The run's task; `{{event}}`, `{{delivery}}` and `{{trigger}}` are filled in (never the body's fields). */
  prompt: z.string().min(1).max(16_000),
  signature: z.enum(SIGNATURE_STYLES),
  secret: z
    .string()
    .refine((s) => new RegExp(`^${ENV_REF.source}$`).test(s), 'write ${env:NAME}: the secret is kept out of this file'),
  approvals: APPROVALS.default('deny'),
  /** Whose the runs are: that owner's API keys see them (admins see every run). */
  owner: z.string().min(1).optional(),
  notify: z.url({ protocol: /^https?$/ }).optional(),
  description: z.string().optional(),
  enabled: z.boolean().default(true),
});

export type TriggerEntry = z.infer<typeof entry> & { approvals: UnattendedApprovals };

const file = z.strictObject({ triggers: z.record(z.string(), z.unknown()) });

export function parseTriggers(text: string): Record<string, TriggerEntry> {
  const parsed = file.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error('the file is {"triggers": {"<name>": {…}}}');
  const triggers: Record<string, TriggerEntry> = {};
  const problems: string[] = [];
  for (const [name, value] of Object.entries(parsed.data.triggers)) {
    if (!UNATTENDED_NAME.test(name)) {
      problems.push(`trigger "${name}": a name is letters, digits, - or _ (at most 48)`);
      continue;
    }
    const one = entry.safeParse(value);
    if (one.success) triggers[name] = one.data;
    else {
      const issue = one.error.issues[0]!;
      problems.push(`trigger "${name}": ${issue.path.join('.') || 'entry'}: ${issue.message}`);
    }
  }
  if (problems.length) throw new Error(problems.join('; '));
  return triggers;
}

export class TriggerFile {
  private readonly live: LiveFile<Record<string, TriggerEntry>>;

  constructor(readonly path: string) {
    this.live = new LiveFile(path, parseTriggers, {}, '{"triggers": {}}');
  }

  /** The enabled trigger of this name, if any. */
  get(name: string): TriggerEntry | undefined {
    const found = Object.hasOwn(this.live.current().value, name) ? this.live.current().value[name] : undefined;
    return found?.enabled ? found : undefined;
  }

  all(): { triggers: Record<string, TriggerEntry>; error: string | null } {
    const { value, error } = this.live.current();
    return { triggers: value, error };
  }
}
