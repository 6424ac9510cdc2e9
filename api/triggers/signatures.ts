// Webhook signatures, checked over the raw body before anything reads it. Two styles:
// - GitHub: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>`; the event is `X-GitHub-Event`. GitHub signs
//   neither a timestamp nor its `X-GitHub-Delivery` header, so a captured body could be resent under any delivery id:
//   the run's key is the body's hash instead (GitHub's own redeliveries resend the same bytes).
// - Stripe: `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (several v1 while a secret
//   rolls); the timestamp may be at most MAX_SKEW_S from now; the delivery id is the event's `id`, the event its `type`.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { SignatureStyle } from './trigger-registry';

/** How far a signed timestamp may be from our clock, either way (Stripe's own tolerance). */
export const MAX_SKEW_S = 300;

export interface SignedDelivery {
  /** Signed, and the same when the sender retries the delivery: the run's workflow id is made from it. */
  key: string;
  /** The sender's id for the delivery (GitHub's header, Stripe's event id), as it gave it. */
  deliveryId: string;
  event?: string;
}

/** The header a style's signature comes in: a delivery without it is refused before its body is read. */
export const SIGNATURE_HEADER = { github: 'x-hub-signature-256', stripe: 'stripe-signature' } as const;

/** Why a delivery is refused, with the HTTP status it is answered with. */
export class DeliveryRefused extends Error {
  constructor(
    readonly status: 400 | 401,
    message: string,
  ) {
    super(message);
  }
}

export interface SignedRequest {
  header: (name: string) => string | undefined;
  raw: Uint8Array;
  /** The body parsed as JSON (checked before the signature is, so a bad body is said plainly). */
  body: unknown;
  /** Our clock, in ms. */
  now: number;
}

export function verifyDelivery(style: SignatureStyle, secret: string, req: SignedRequest): SignedDelivery {
  return style === 'github' ? github(secret, req) : stripe(secret, req);
}

function github(secret: string, { header, raw }: SignedRequest): SignedDelivery {
  const given = /^sha256=([0-9a-f]{64})$/i.exec(header('x-hub-signature-256')?.trim() ?? '');
  if (!given) throw new DeliveryRefused(401, 'X-Hub-Signature-256: sha256=<hex> is missing or malformed.');
  if (!matches(hmac(secret, [raw]), given[1]!)) throw new DeliveryRefused(401, 'The signature does not match.');
  const deliveryId = header('x-github-delivery')?.trim();
  if (!deliveryId) throw new DeliveryRefused(400, 'X-GitHub-Delivery (the delivery id) is missing.');
  const event = header('x-github-event')?.trim();
  const key = `sha256-${createHash('sha256').update(raw).digest('hex').slice(0, 40)}`;
  return { key, deliveryId, ...(event ? { event } : {}) };
}

function stripe(secret: string, { header, raw, body, now }: SignedRequest): SignedDelivery {
  const parts = (header('stripe-signature') ?? '').split(',').map((p) => p.trim().split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  const signatures = parts.filter(([k, v]) => k === 'v1' && v).map(([, v]) => v!);
  if (!t || !/^\d+$/.test(t) || !signatures.length)
    throw new DeliveryRefused(401, 'Stripe-Signature: t=<time>,v1=<hex> is missing or malformed.');
  const expected = hmac(secret, [Buffer.from(`${t}.`), raw]);
  if (!signatures.some((s) => matches(expected, s))) throw new DeliveryRefused(401, 'The signature does not match.');
  const skew = Math.round(Math.abs(now / 1000 - Number(t)));
  if (skew > MAX_SKEW_S)
    throw new DeliveryRefused(401, `The signed timestamp is ${skew} s from now; at most ${MAX_SKEW_S} s is accepted.`);
  const event = body as { id?: unknown; type?: unknown };
  if (typeof event?.id !== 'string' || !event.id) throw new DeliveryRefused(400, 'The event has no "id".');
  return { key: event.id, deliveryId: event.id, ...(typeof event.type === 'string' ? { event: event.type } : {}) };
}

function hmac(secret: string, parts: Uint8Array[]): Buffer {
  const mac = createHmac('sha256', secret);
  for (const p of parts) mac.update(p);
  return mac.digest();
}

function matches(expected: Buffer, hex: string): boolean {
  const given = Buffer.from(hex, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A signature as a sender would make it (tests, docs' examples, `agent trigger sign`). */
export function signDelivery(
  style: SignatureStyle,
  secret: string,
  raw: string,
  nowMs: number,
): Record<string, string> {
  if (style === 'github')
    return { 'x-hub-signature-256': `sha256=${hmac(secret, [Buffer.from(raw)]).toString('hex')}` };
  const t = Math.floor(nowMs / 1000);
  return { 'stripe-signature': `t=${t},v1=${hmac(secret, [Buffer.from(`${t}.${raw}`)]).toString('hex')}` };
}
