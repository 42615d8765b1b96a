import { randomBytes } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import { platformDefaultTransport } from '../../api/shared/mail-transports/platform-default.ts';
import { DEFAULT_MAIL_ENDPOINTS } from '../../domain/shared/mail-endpoints.ts';
import { ShopMail } from '../../db/entities/shop/index.ts';
import { recordEffect, recordedEffect, shopEm, type EffectKey } from '../../db/repositories/shop/order-effects.ts';
import { recordShopMail } from '../../db/repositories/shop/shop-mails.ts';
import { assignInvoiceNumber, contentsOfProducts, insertDownloadCodes, loadOrderFacts, loadStatusWithSender } from '../../db/repositories/shop/order-facts.ts';
import { done, invoiceNumber, skipped, type EffectOutcome, type EffectSource, type OrderEffectName } from '../../domain/shop/effects.ts';
import { fillTags, orderMailTags } from '../../domain/shop/mail-tags.ts';
import type { ActivityDeps } from '../shared/deps.ts';
import { shopIntegrations } from './integrations/index.ts';

export interface OrderEffectInput {
  shopId: string;
  orderId: number;
  source: EffectSource;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The side effects of an order's clearing and status changes, one activity each (DESIGN.md
 * section 7). Each is idempotent: it answers an outcome already recorded for the same order,
 * transition and effect instead of doing the work again, and records its own outcome.
 */
export function orderEffectActivities({ orm, now = () => new Date(), mailEndpoints = DEFAULT_MAIL_ENDPOINTS, shopIntegrations: integrations = shopIntegrations() }: ActivityDeps) {
  /** Runs `perform` unless the effect already has an outcome other than `failed`, and records it. */
  async function once(input: OrderEffectInput, effect: OrderEffectName, perform: (em: ReturnType<typeof shopEm>) => Promise<EffectOutcome>): Promise<EffectOutcome> {
    const key: EffectKey = { ...input, effect };
    const em = shopEm(orm, input.shopId);
    const recorded = await recordedEffect(em, key);
    if (recorded && recorded.status !== 'failed') return recorded;
    const outcome = await perform(em);
    await recordEffect(em, key, outcome, now());
    return outcome;
  }

  async function facts(em: ReturnType<typeof shopEm>, orderId: number) {
    const loaded = await loadOrderFacts(em, orderId);
    if (!loaded) throw ApplicationFailure.nonRetryable(`order ${orderId} not found`, 'OrderNotFound');
    return loaded;
  }

  return {
    /**
     * Records an effect's final outcome when its activity gave up (`failed`), has nothing to do yet
     * (`skipped`), or was handed to a workflow of its own (a shop webhook's delivery; `target` names it).
     */
    async recordOrderEffect({ effect, outcome, ...input }: OrderEffectInput & { effect: OrderEffectName; target?: string; outcome: EffectOutcome }): Promise<void> {
      await recordEffect(shopEm(orm, input.shopId), { ...input, effect }, outcome, now());
    },

    /** Invoice number from the shop's own sequence when automatic invoicing is on. */
    async issueInvoice(input: OrderEffectInput): Promise<EffectOutcome> {
      return once(input, 'invoice', async (em) => {
        const { shop } = await facts(em, input.orderId);
        if (!shop.automaticInvoicing) return skipped('automatic invoicing is off');
        const issuedAt = now();
        return done(await assignInvoiceNumber(em, input.shopId, input.orderId, (n) => invoiceNumber(n, issuedAt)));
      });
    },

    /** One download code per electronic content of every paid electronic line. */
    async createDownloadCodes(input: OrderEffectInput): Promise<EffectOutcome> {
      return once(input, 'download_codes', async (em) => {
        const { order, items } = await facts(em, input.orderId);
        const lines = items.filter((item) => item.productId !== null && item.productId !== undefined);
        const contents = lines.length ? await contentsOfProducts(em, lines.map((l) => l.productId!)) : [];
        const paidAt = order.paidAt ?? now();
        const codes = lines.flatMap((line) =>
          contents
            .filter((content) => content.product.id === line.productId)
            .map((content) => ({
              shopId: input.shopId,
              orderId: order.id,
              orderItemId: line.id,
              contentId: content.id,
              token: randomBytes(24).toString('base64url'),
              fileName: content.file.getEntity().filename,
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
    async sendAnalyticsPurchase(input: OrderEffectInput): Promise<EffectOutcome> {
      return once(input, 'analytics_purchase', async (em) => {
        if (!integrations.analytics) return skipped('no analytics integration configured');
        const { order, items } = await facts(em, input.orderId);
        await integrations.analytics.purchase({
          transactionId: `${input.shopId}:${order.ordinalNumber}`,
          // Not the order's uuid: that is the secret cart key.
          clientId: `${input.shopId}.${order.id}`,
          currency: order.currency,
          value: order.total,
          items: items.map((i) => ({ item_id: i.sku || String(i.productId ?? i.id), item_name: i.name, price: i.unitPrice, quantity: i.quantity })),
        });
        return done(`purchase of order ${order.ordinalNumber} sent`);
      });
    },

    /** Tags on the buyer's contact in the marketing tool: `customer` and one per product. */
    async tagCustomer(input: OrderEffectInput): Promise<EffectOutcome> {
      return once(input, 'marketing_tags', async (em) => {
        if (!integrations.marketing) return skipped('no marketing integration configured');
        const { order, items } = await facts(em, input.orderId);
        const tags = ['customer', ...new Set(items.map((i) => `product:${i.productId ?? i.sku}`))];
        await integrations.marketing.tagContact(order.email, tags);
        return done(tags.join(', '));
      });
    },

    /** The status's mail to the customer, when the status has one and sending is on. */
    async sendStatusMail(input: OrderEffectInput & { statusId: number }): Promise<EffectOutcome> {
      return once(input, 'status_mail', async (em) => {
        const { status, sender } = await loadStatusWithSender(em, input.statusId);
        const template = status?.email as { subject?: string; content?: string } | null | undefined;
        if (!status || !template?.subject || !template.content) return skipped('the status has no mail');
        if (!status.sendEmailOnStatusChange) return skipped('sending on status change is off');
        const { order } = await facts(em, input.orderId);
        const address = (order.deliveryAddress ?? order.invoiceAddress ?? {}) as Record<string, string | undefined>;
        const tags = orderMailTags({
          ordinalNumber: order.ordinalNumber,
          email: order.email,
          firstName: address.first_name ?? '',
          lastName: address.last_name ?? '',
          total: order.total,
          currency: order.currency,
          statusName: status.name,
          trackingNumber: order.trackingNumber,
          deliveryMethod: order.deliveryMethod ?? '',
        });
        const mailKey = `order/${order.id}/${input.source}/status_mail`;
        const existing = await em.findOne(ShopMail, { key: mailKey });
        if (existing && existing.status !== 'failed') return done(`mail to ${existing.to} ${existing.status}`);
        const message = {
          id: mailKey,
          messageId: `<shop-${order.id}.${input.source.replace(':', '-')}.${input.shopId}@shop>`,
          from: { address: sender?.email ?? 'no-reply@shop.invalid', name: sender?.name ?? '' },
          replyTo: null,
          to: order.email,
          subject: fillTags(template.subject, tags),
          html: fillTags(template.content, tags),
          text: '',
        };
        const result = await platformDefaultTransport(mailEndpoints).send(message);
        const mailStatus = result.recordedOnly ? 'recorded' : 'sent';
        await recordShopMail(em, {
          shopId: input.shopId,
          key: mailKey,
          kind: 'status_mail',
          fromAddress: message.from.address,
          fromName: message.from.name,
          to: message.to,
          subject: message.subject,
          html: message.html,
          status: mailStatus,
          error: null,
          sentAt: now(),
        });
        return done(`mail to ${order.email} ${mailStatus}`);
      });
    },
  };
}
