import type { EntityManager } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import { DEFAULT_MAIL_ENDPOINTS } from '../../domain/shared/mail-endpoints.ts';
import { DEFAULT_PUBLIC_URL } from '../../domain/shared/config.ts';
import { type EffectKey } from '../../db/repositories/shop/order-effects.ts';
import { composeOrderStatusMail } from '../../db/repositories/shop/status-mails.ts';
import { findOrderStatus, statusMailSettings } from '../../db/repositories/shop/order-status-config.ts';
import { paidStatusOnce } from '../../db/repositories/shop/step-reads.ts';
import { newStatusId } from '../../db/repositories/shop/orders.ts';
import { invoicesAutomatically } from '../../db/repositories/shop/shops.ts';
import { contentsOfProducts, insertDownloadCodes } from '../../db/repositories/shop/order-facts.ts';
import { invoiceProductSettings, invoiceOfKind, issueInvoiceDocument, shopTimeZone } from '../../db/repositories/shop/invoices.ts';
import { buildInvoice, correctionOf } from '../../domain/shop/invoice.ts';
import { done, HAND_ON, isHandOn, skipped, type EffectOutcome, type EffectSource, type HandOn, type OrderEffectName } from '../../domain/shop/effects.ts';
import { internalStatusAt, invoicedLines, needsNoClearing } from '../../domain/shop/order-lifecycle.ts';
import { invoiceSourceOf } from './invoice-source.ts';
import { purchaseClientId } from '../../domain/shop/analytics-client-id.ts';
import { shopMessageId, storedTemplate } from '../../domain/shop/status-mail.ts';
import { unitsOfWork, type ActivityDb, type ActivityDeps } from '../shared/deps.ts';
import { orderEffects } from '../shared/metrics.ts';
import { secretsKeyFrom } from '../../adapters/secrets/secret-box.ts';
import { integrationsFromSettings } from './integrations/index.ts';
import { IntegrationRefused } from '../../adapters/integration-error.ts';
import { sendShopMailOnce } from './shop-mail-send.ts';

export interface OrderEffectInput {
  shopId: string;
  orderId: number;
  source: EffectSource;
}

/**
 * An effect that may talk to the outside, asked by a local step first (issue 26 item 1): it
 * decides and records what needs no call (nothing configured: `skipped`) and answers `HAND_ON`,
 * recording nothing, when the call is to be made by its retried activity.
 */
export interface LocalFirst {
  localFirst?: boolean;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A tool's call whose refusal a retry cannot change (bad credentials, invalid request) ends the
 * activity's retries at once: the workflow records the effect `failed` with the tool's reason.
 */
async function toolCall(call: Promise<void>): Promise<void> {
  try {
    await call;
  } catch (error) {
    if (error instanceof IntegrationRefused) throw ApplicationFailure.nonRetryable(error.message, 'IntegrationRefused');
    throw error;
  }
}

/** The shop's tags, then each bought product's, each once. */
export function buyerTags(always: readonly string[], byProduct: Record<string, string[]>, productIds: readonly (number | null | undefined)[]): string[] {
  return [...new Set([...always, ...productIds.flatMap((id) => (id == null ? [] : (byProduct[String(id)] ?? [])))])];
}

/**
 * The side effects of an order's clearing and status changes, one activity each (DESIGN.md
 * section 7). Each is idempotent: it answers an outcome already recorded for the same order,
 * transition and effect instead of doing the work again, and records its own outcome.
 */
export function orderEffectActivities(
  { orm, now = () => new Date(), mailEndpoints = DEFAULT_MAIL_ENDPOINTS, secretsKey, integrationEndpoints, publicUrl = DEFAULT_PUBLIC_URL }: ActivityDeps,
  db: ActivityDb = unitsOfWork(orm),
) {
  const { reads: { orderFacts, recordedEffect, shopSettings }, recordEffect } = db;
  // Each order's tools come from its own shop's settings (read by the order's shop id).
  const integrationsFor = integrationsFromSettings(secretsKey ?? secretsKeyFrom(undefined, () => undefined), integrationEndpoints);
  const integrationsOf = (em: EntityManager, shopId: string) => shopSettings(shopId, 'integrations', () => integrationsFor(em, shopId));
  /** Runs `perform` unless the effect already has an outcome other than `failed`, and records it. */
  async function once<T extends EffectOutcome | HandOn = EffectOutcome>(input: OrderEffectInput, effect: OrderEffectName, perform: (em: EntityManager) => Promise<T>): Promise<T | EffectOutcome> {
    const key: EffectKey = { shopId: input.shopId, orderId: input.orderId, source: input.source, effect };
    const em = db.shopEm(input.shopId);
    const recorded = await recordedEffect(em, key);
    if (recorded && recorded.status !== 'failed') return recorded;
    const outcome = await perform(em);
    if (isHandOn(outcome)) return outcome;
    await recordEffect(em, key, outcome, now());
    orderEffects.inc({ effect, outcome: outcome.status });
    return outcome;
  }

  async function facts(em: EntityManager, orderId: number) {
    const loaded = await orderFacts(em, orderId);
    if (!loaded) throw ApplicationFailure.nonRetryable(`order ${orderId} not found`, 'OrderNotFound');
    return loaded;
  }

  const activities = {
    /**
     * Records an effect's final outcome when its activity gave up (`failed`), has nothing to do yet
     * (`skipped`), or was handed to a workflow of its own (a shop webhook's delivery; `target` names it).
     * `provisional`: an outcome the delivery's workflow records over once it is over, so it is recorded
     * only when that workflow has not been faster.
     */
    async recordOrderEffect({
      effect,
      outcome,
      provisional = false,
      ...input
    }: OrderEffectInput & { effect: OrderEffectName; target?: string; outcome: EffectOutcome; provisional?: boolean }): Promise<void> {
      await recordEffect(db.shopEm(input.shopId), { ...input, effect }, outcome, now(), { keepRecorded: provisional });
      orderEffects.inc({ effect, outcome: outcome.status });
    },

    /**
     * What placing runs (DESIGN.md section 10, "Order confirmation"): the shop's New status, whose
     * own effects placing runs, and whether the order needs no clearing (a zero total).
     */
    async placingFacts(input: OrderEffectInput): Promise<{ newStatusId: number; needsNoClearing: boolean }> {
      const em = db.shopEm(input.shopId);
      const { order } = await facts(em, input.orderId);
      return { newStatusId: await newStatusId(em, input.shopId), needsNoClearing: needsNoClearing(order.total) };
    },

    /** Whether the order's total is zero: it is then fulfilled at placing, without clearing. */
    async needsNoClearing(input: OrderEffectInput): Promise<boolean> {
      const { order } = await facts(db.shopEm(input.shopId), input.orderId);
      return needsNoClearing(order.total);
    },

    /**
     * The order's invoice when automatic invoicing is on (DESIGN.md section 10): numbered per shop
     * and year in the shop's zone, its document stored for the PDF, for the lines of products that
     * are not `no_invoice`; an order of only such products gets none.
     */
    async issueInvoice(input: OrderEffectInput): Promise<EffectOutcome> {
      return once(input, 'invoice', async (em) => {
        const orderFacts = await facts(em, input.orderId);
        const { shop, items } = orderFacts;
        if (!shop.automaticInvoicing) return skipped('automatic invoicing is off');
        const productIds = items.flatMap((i) => (i.productId == null ? [] : [i.productId]));
        const { noInvoice, names } = await invoiceProductSettings(em, input.shopId, productIds);
        const lines = invoicedLines(items, noInvoice);
        if (lines.length === 0) return skipped('every product of the order is no_invoice');
        const issuedAt = now();
        const { number } = await issueInvoiceDocument(em, {
          shopId: input.shopId,
          orderId: input.orderId,
          kind: 'invoice',
          issuedAt,
          timeZone: shopTimeZone(shop),
          build: (n) => buildInvoice(invoiceSourceOf(orderFacts, lines, names, n, issuedAt)),
        });
        return done(lines.length === items.length ? number : `${number} (lines ${lines.map((l) => l.id).join(', ')}; no_invoice products left out)`);
      });
    },

    /**
     * The clearing's invoice numbered ahead of its step (activities/shop/clearing-transaction.ts),
     * as `issueInvoice` numbers it, when the shop invoices automatically. Otherwise only the shop's
     * switch is read (not the order) and nothing is recorded here: the step's invoice part records why.
     */
    async issueInvoiceAhead(input: OrderEffectInput): Promise<void> {
      if (await invoicesAutomatically(db.shopEm(input.shopId), input.shopId)) await activities.issueInvoice(input);
    },

    /**
     * A status change's `invoice` effect: an invoiced order moved to a canceled or returned status
     * gets, once, the correction that negates its invoice (`KOR/<year>/<n>`). Other statuses record
     * nothing (null).
     */
    async correctOrderInvoice(input: OrderEffectInput & { statusId: number }): Promise<EffectOutcome | null> {
      const status = await findOrderStatus(db.shopEm(input.shopId), input.statusId);
      if (!status || internalStatusAt(status.kind) === 'placed') return null;
      return once(input, 'invoice', async (em) => {
        const invoice = await invoiceOfKind(em, input.orderId, 'invoice');
        if (!invoice) return skipped('the order has no invoice');
        const { shop } = await facts(em, input.orderId);
        const issuedAt = now();
        const timeZone = shopTimeZone(shop);
        const correction = await issueInvoiceDocument(em, {
          shopId: input.shopId,
          orderId: input.orderId,
          kind: 'correction',
          issuedAt,
          timeZone,
          correctsId: invoice.id,
          build: (n) => correctionOf(invoice.document, n, issuedAt, timeZone),
        });
        return done(`${correction.number} corrects ${invoice.number}${correction.created ? '' : ' (issued before)'}`);
      });
    },

    /** One download code per electronic content of every paid electronic line. */
    async createDownloadCodes(input: OrderEffectInput): Promise<EffectOutcome> {
      return once(input, 'download_codes', async (em) => {
        const { order, items } = await facts(em, input.orderId);
        const lines = items.filter((item) => item.productId !== null && item.productId !== undefined);
        const contents = lines.length ? await contentsOfProducts(em, input.shopId, lines.map((l) => l.productId!)) : [];
        const paidAt = order.paidAt ?? now();
        const codes = lines.flatMap((line) =>
          contents
            .filter((content) => content.productId === line.productId)
            .map((content) => ({
              shopId: input.shopId,
              orderId: order.id,
              orderItemId: line.id,
              contentId: content.id,
              token: randomBytes(24).toString('base64url'),
              fileName: content.fileName,
              usagesToExpire: content.usagesToExpire,
              expiresAt: new Date(paidAt.getTime() + content.daysToExpire * DAY_MS),
            })),
        );
        if (codes.length === 0) return skipped('no electronic contents in this order');
        const created = await insertDownloadCodes(em, codes);
        return done(`${codes.length} download codes (${created} new)`);
      });
    },

    /** The purchase event to the analytics integration. */
    async sendAnalyticsPurchase(input: OrderEffectInput & LocalFirst): Promise<EffectOutcome | HandOn> {
      return once<EffectOutcome | HandOn>(input, 'analytics_purchase', async (em) => {
        const { analytics } = await integrationsOf(em, input.shopId);
        if (!analytics) return skipped('no analytics integration configured');
        if (input.localFirst) return HAND_ON;
        const { order, items } = await facts(em, input.orderId);
        await toolCall(analytics.purchase({
          transactionId: `${input.shopId}:${order.ordinalNumber}`,
          // The buyer's `_ga` id when the storefront was given it; never the order's uuid (the secret cart key).
          clientId: purchaseClientId(order, input.shopId),
          currency: order.currency,
          value: order.total,
          items: items.map((i) => ({ item_id: i.sku || String(i.productId ?? i.id), item_name: i.name, price: i.unitPrice, quantity: i.quantity })),
        }));
        return done(`purchase of order ${order.ordinalNumber} sent`);
      });
    },

    /** Tags on the buyer in the shop's mailing tool: the shop's `tags` and the `product_tags` of each product bought. */
    async tagCustomer(input: OrderEffectInput & LocalFirst): Promise<EffectOutcome | HandOn> {
      return once<EffectOutcome | HandOn>(input, 'marketing_tags', async (em) => {
        const { marketing } = await integrationsOf(em, input.shopId);
        if (!marketing) return skipped('no marketing integration configured');
        const { order, items } = await facts(em, input.orderId);
        const tags = buyerTags(marketing.tags, marketing.productTags, items.map((i) => i.productId));
        if (tags.length === 0) return skipped('no tags for this order');
        if (input.localFirst) return HAND_ON;
        await toolCall(marketing.client.tagContact(order.email, tags));
        return done(tags.join(', '));
      });
    },

    /**
     * The status's mail to the customer (`statusId` null: the Paid status, set by the clearing), when the status has one and sending is on: its delivery
     * block, electronic substitution, tags and download links (db/repositories/shop/status-mails.ts),
     * and a copy to the status's bcc address.
     */
    async sendStatusMail(input: OrderEffectInput & LocalFirst & { statusId: number | null }): Promise<EffectOutcome | HandOn> {
      return once<EffectOutcome | HandOn>(input, 'status_mail', async (em) => {
        // null: the shop's Paid status, which the clearing sets.
        const status = input.statusId == null ? await paidStatusOnce(db.reads, em, input.shopId) : await statusMailSettings(em, input.shopId, input.statusId);
        const template = storedTemplate(status?.email);
        if (!status || !template) return skipped('the status has no mail');
        if (!status.sendEmailOnStatusChange) return skipped('sending on status change is off');
        if (input.localFirst) return HAND_ON;
        const { order, ...composed } = await composeOrderStatusMail(em, input.shopId, status, template, input.orderId, publicUrl);
        if (!order) throw ApplicationFailure.nonRetryable(`order ${input.orderId} not found`, 'OrderNotFound');
        const recipients = [order.email, ...(status.bccEmailAddress ? [status.bccEmailAddress] : [])];
        const outcomes: string[] = [];
        for (const [i, to] of recipients.entries()) {
          // The key of the customer's mail is the one from before bcc existed; the copy has its own.
          const key = `order/${order.id}/${input.source}/status_mail${i === 0 ? '' : '/bcc'}`;
          const { status } = await sendShopMailOnce(em, mailEndpoints, now(), { shopId: input.shopId, key, kind: 'status_mail', messageId: shopMessageId(input.shopId, key), to, ...composed });
          outcomes.push(`mail to ${to} ${status}`);
        }
        return done(outcomes.join('; '));
      });
    },
  };
  return activities;
}

/** What a workflow proxies of this file: `activitiesOf<OrderEffectActivities>(profile)` (workflows/shared/activities-of.ts). */
export type OrderEffectActivities = ReturnType<typeof orderEffectActivities>;
