/**
 * Stripe through the official SDK (`stripe`): the customer of a buyer e-mail, the PaymentIntent
 * of an order (client secret for the buyer's confirmation), the off-session renewal charge of the
 * gateway interface, and the signed webhook's verification. `apiUrl` points the SDK at another
 * host (stripe-mock, a local stand-in); Stripe's own API when unset.
 */
import Stripe from 'stripe';
import { money } from '../../domain/shared/money.ts';
import { parseStripePaymentReference, type ChargeRequest, type ChargeResult, type PaymentGateway } from '../../domain/shop/payment-gateway.ts';

/** Currencies Stripe counts in whole units (no cents): https://docs.stripe.com/currencies#zero-decimal */
const ZERO_DECIMAL = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'JPY', 'KMF', 'KRW', 'MGA', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']);

/** "49.00" PLN -> 4900 (Stripe's smallest unit). */
export function toMinorUnits(amount: string, currency: string): number {
  const value = money(amount);
  return (ZERO_DECIMAL.has(currency.toUpperCase()) ? value : value.times(100)).toDecimalPlaces(0).toNumber();
}

/** Webhooks older than this (seconds) are refused as replays (Stripe's default tolerance). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export interface StripeSettings {
  secretKey: string;
  apiUrl?: string;
  timeoutMs?: number;
}

export interface StartedPayment {
  paymentIntentId: string;
  clientSecret: string;
  status: string;
}

export interface WebhookPaymentIntent {
  id: string;
  amount: number;
  currency: string;
  customer: string | null;
  paymentMethod: string | null;
  metadata: Record<string, string>;
}

export type VerifiedEvent = { id: string; type: string; paymentIntent: WebhookPaymentIntent | null };

function client({ secretKey, apiUrl, timeoutMs = 20_000 }: StripeSettings): Stripe {
  const url = apiUrl ? new URL(apiUrl) : null;
  return new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: timeoutMs,
    telemetry: false,
    ...(url && { protocol: url.protocol === 'http:' ? 'http' : 'https', host: url.hostname, port: url.port || (url.protocol === 'http:' ? 80 : 443) }),
  });
}

const idOf = (value: string | { id: string } | null | undefined): string | null => (value == null ? null : typeof value === 'string' ? value : value.id);

/** A Stripe card error (402) or a PaymentIntent left needing the customer: the charge is declined, with why. */
function declineOf(error: unknown): ChargeResult | null {
  if (!(error instanceof Stripe.errors.StripeCardError)) return null;
  const reason = [error.code, error.decline_code].filter(Boolean).join(': ') || 'card declined';
  return { status: 'declined', reason };
}

export function stripeAdapter(settings: StripeSettings) {
  const stripe = client(settings);

  return {
    /** The customer of `email`: a search by e-mail (the first one that matches exactly), else a new one. */
    async customerFor(email: string, idempotencyKey: string): Promise<string> {
      const found = await stripe.customers.list({ email, limit: 1 });
      const existing = found.data.find((c) => c.email?.toLowerCase() === email.toLowerCase());
      if (existing) return existing.id;
      const created = await stripe.customers.create({ email }, { idempotencyKey });
      return created.id;
    },

    /**
     * A PaymentIntent for an order: the amount in the currency, the customer, and the card kept
     * for later off-session charges when `saveForLater`. The same key answers the same intent.
     */
    async startPayment(p: { amount: string; currency: string; customerId: string; saveForLater: boolean; description: string; metadata: Record<string, string>; idempotencyKey: string }): Promise<StartedPayment> {
      const intent = await stripe.paymentIntents.create(
        {
          amount: toMinorUnits(p.amount, p.currency),
          currency: p.currency.toLowerCase(),
          customer: p.customerId,
          description: p.description,
          metadata: p.metadata,
          automatic_payment_methods: { enabled: true },
          ...(p.saveForLater && { setup_future_usage: 'off_session' as const }),
        },
        { idempotencyKey: p.idempotencyKey },
      );
      return { paymentIntentId: intent.id, clientSecret: intent.client_secret ?? '', status: intent.status };
    },

    async retrievePayment(paymentIntentId: string): Promise<StartedPayment> {
      const intent = await stripe.paymentIntents.retrieve(paymentIntentId);
      return { paymentIntentId: intent.id, clientSecret: intent.client_secret ?? '', status: intent.status };
    },

    /**
     * Detaches a saved payment method from its customer (erasure). One already detached or gone
     * is no error (Stripe answers an invalid request for it), so a repeated erasure succeeds.
     */
    async detachPaymentMethod(paymentMethodId: string): Promise<void> {
      try {
        await stripe.paymentMethods.detach(paymentMethodId);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && (error.statusCode === 400 || error.statusCode === 404)) return;
        throw error;
      }
    },

    /** The renewal charge: the saved card off-session, confirmed at once; a card error or `requires_action` is a decline. */
    gateway: {
      async charge(request: ChargeRequest): Promise<ChargeResult> {
        const saved = parseStripePaymentReference(request.paymentReference);
        if (!saved) return { status: 'declined', reason: 'no saved Stripe payment method' };
        try {
          const intent = await stripe.paymentIntents.create(
            {
              amount: toMinorUnits(request.amount, request.currency),
              currency: request.currency.toLowerCase(),
              customer: saved.customerId,
              payment_method: saved.paymentMethodId,
              off_session: true,
              confirm: true,
              description: request.description,
            },
            { idempotencyKey: request.idempotencyKey },
          );
          if (intent.status === 'succeeded' || intent.status === 'processing') return { status: 'approved', reference: intent.id };
          if (intent.status === 'requires_action') return { status: 'declined', reason: 'authentication_required' };
          return { status: 'declined', reason: `payment ${intent.status}` };
        } catch (error) {
          const declined = declineOf(error);
          if (declined) return declined;
          throw error;
        }
      },
    } satisfies PaymentGateway,
  };
}

export type StripeAdapter = ReturnType<typeof stripeAdapter>;

/**
 * The event of a `Stripe-Signature`d body, verified with the endpoint's secret (HMAC, timestamp
 * within `tolerance` seconds); throws on a forged, altered or replayed body. No API call.
 */
export function verifyStripeWebhook(rawBody: Buffer | string, signature: string, webhookSecret: string, tolerance = WEBHOOK_TOLERANCE_SECONDS): VerifiedEvent {
  const event = Stripe.webhooks.constructEvent(rawBody, signature, webhookSecret, tolerance);
  const object = event.data.object as { object?: string };
  if (object.object !== 'payment_intent') return { id: event.id, type: event.type, paymentIntent: null };
  const intent = event.data.object as Stripe.PaymentIntent;
  return {
    id: event.id,
    type: event.type,
    paymentIntent: { id: intent.id, amount: intent.amount, currency: intent.currency, customer: idOf(intent.customer), paymentMethod: idOf(intent.payment_method), metadata: intent.metadata ?? {} },
  };
}

/** A `Stripe-Signature` header for `payload` as Stripe computes it (tests, local receivers). */
export function signStripeWebhook(payload: string, webhookSecret: string, timestamp?: number): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret, ...(timestamp !== undefined && { timestamp }) });
}
