import type { EffectOutcome } from './effects.ts';
/**
 * The club integration (spec: Club integration settings, Endpoints > Club integration): a webhook
 * sent to a club's address when an order reaches one status, for the listed products or, with an
 * empty list, for every order. Pure rules; the writes are in api/shop/configuration/club/ and the
 * webhook in workflows/shop/club-webhook.ts.
 */

/** The `type` of the club webhook's body (`{type, timestamp, data: {id, order, order_status, club}}`). */
export const CLUB_WEBHOOK_EVENT = 'club_order_status_reached';

/** The most products one write may list. */
export const CLUB_PRODUCTS_MAX = 1000;

/** A write-only field as sent: omitted or `""` keeps the stored value, `null` clears it, any other string replaces it. */
export type SecretWrite = { kind: 'keep' } | { kind: 'clear' } | { kind: 'set'; value: string };

export function secretWrite(sent: string | null | undefined): SecretWrite {
  if (sent === undefined || sent === '') return { kind: 'keep' };
  if (sent === null) return { kind: 'clear' };
  return { kind: 'set', value: sent };
}

export const URL_REQUIRED = 'is required when the club integration is created';
export const URL_NOT_CLEARABLE = 'cannot be cleared: the club integration needs an address (an empty string keeps the current one)';

/**
 * The problem of `webhook_url` in a PATCH (rules 1 and 2): required when the write creates the
 * integration, never cleared. Null when the field is fine.
 */
export function webhookUrlWriteProblem(exists: boolean, sent: string | null | undefined): string | null {
  const write = secretWrite(sent);
  if (write.kind === 'clear') return URL_NOT_CLEARABLE;
  if (!exists && write.kind === 'keep') return URL_REQUIRED;
  return null;
}

/** DNS limits (RFC 1035): the host column holds at most 255 characters. */
export const HOSTNAME_MAX = 253;
export const HOSTNAME_LABEL_MAX = 63;

/** The problem of the address's host name (too long for DNS and for the stored host), or null. */
export function webhookHostProblem(url: string): string | null {
  const host = webhookHost(url);
  if (host.length > HOSTNAME_MAX) return `the host name is longer than ${HOSTNAME_MAX} characters`;
  if (host.split('.').some((label) => label.length > HOSTNAME_LABEL_MAX)) return `a label of the host name is longer than ${HOSTNAME_LABEL_MAX} characters`;
  return null;
}

/** What the replies show of the address, which carries a token: only its host. */
export function webhookHost(url: string): string {
  return URL.canParse(url) ? new URL(url).hostname : '';
}

/** An empty product list means the webhook goes for every order (rule 5). */
export function firesForAllProducts(productIds: readonly number[]): boolean {
  return productIds.length === 0;
}

export interface ClubSettings {
  active: boolean;
  orderStatusId: number;
  productIds: readonly number[];
}

export type ClubDecision = { fire: true; matchedProductIds: number[] } | { fire: false; reason: string };

/**
 * Whether an order that reached `statusId` goes to the club: the integration exists and is on, the
 * status is its status, and the order holds a listed product (any order when none is listed).
 * `matchedProductIds` are the listed products the order holds (empty when it fires for all).
 */
export function clubWebhookDecision(club: ClubSettings | null, statusId: number, orderProductIds: readonly number[]): ClubDecision {
  if (!club) return { fire: false, reason: 'no club integration' };
  if (!club.active) return { fire: false, reason: 'the club integration is switched off' };
  if (club.orderStatusId !== statusId) return { fire: false, reason: `the club webhook goes at order status ${club.orderStatusId}, not ${statusId}` };
  if (firesForAllProducts(club.productIds)) return { fire: true, matchedProductIds: [] };
  const matched = club.productIds.filter((id) => orderProductIds.includes(id));
  if (matched.length === 0) return { fire: false, reason: 'the order holds no product of the club list' };
  return { fire: true, matchedProductIds: matched };
}

/**
 * The `club_webhook` effect once its delivery is over: `done` when the club took it, `failed` with
 * the last attempt's reason (a refused address, an error status, a timeout), `skipped` when the
 * integration was switched off before it went.
 */
export function clubDeliveryEffect(d: { host: string; status: string; statusCode: number | null; error: string | null }): EffectOutcome {
  if (d.status === 'succeeded') return { status: 'done', detail: `club webhook delivered to ${d.host}${d.statusCode === null ? '' : ` (HTTP ${d.statusCode})`}` };
  if (d.status === 'disabled') return { status: 'skipped', detail: `club webhook to ${d.host} not sent: the club integration was switched off` };
  if (d.status === 'failed') return { status: 'failed', detail: `club webhook to ${d.host} failed: ${d.error ?? (d.statusCode === null ? 'no reply' : `HTTP ${d.statusCode}`)}` };
  return { status: 'done', detail: `club webhook to ${d.host} under way` };
}
