import type { z } from 'zod';
import type { ISubscriptionPlan, ISubscriptionPlanProduct } from '../../../db/entities/shop/index.ts';
import type { PlanWrite } from '../../../db/repositories/shop/subscriptions.ts';
import type { PlanFieldsInput, PlanReply } from './schemas.ts';

/** A plan as replied, with its links (the links' products populated). */
export function planReply(plan: ISubscriptionPlan, links: readonly ISubscriptionPlanProduct[]): z.infer<typeof PlanReply> {
  return {
    id: plan.id,
    name: plan.name,
    automatic_renewal: plan.automaticRenewal,
    extension_strategy: plan.extensionStrategy,
    free_delivery_minimum_amount: plan.freeDeliveryMinimumAmount ?? null,
    superseded_subscription_plan_id: plan.supersededPlan?.id ?? null,
    send_email_about_activation: plan.sendEmailAboutActivation,
    send_email_about_renewal: plan.sendEmailAboutRenewal,
    send_email_about_expiration_in_one_day: plan.sendEmailAboutExpirationInOneDay,
    send_email_about_expiration_in_one_week: plan.sendEmailAboutExpirationInOneWeek,
    products: links
      .filter((link) => link.plan.id === plan.id)
      .map((link) => ({ product_id: link.product.id, product_name: link.product.getEntity().name, interval: link.interval, renewals_limit: link.renewalsLimit })),
    created_at: plan.createdAt.toISOString(),
    updated_at: plan.updatedAt.toISOString(),
  };
}

/** The write of a plan body: only the fields sent; `products`, when sent, replaces the links. */
export function planWrite(fields: PlanFieldsInput): PlanWrite {
  const sent = {
    name: fields.name,
    automaticRenewal: fields.automatic_renewal,
    extensionStrategy: fields.extension_strategy,
    freeDeliveryMinimumAmount: fields.free_delivery_minimum_amount,
    supersededPlan: fields.superseded_subscription_plan_id,
    sendEmailAboutActivation: fields.send_email_about_activation,
    sendEmailAboutRenewal: fields.send_email_about_renewal,
    sendEmailAboutExpirationInOneDay: fields.send_email_about_expiration_in_one_day,
    sendEmailAboutExpirationInOneWeek: fields.send_email_about_expiration_in_one_week,
  };
  const values = Object.fromEntries(Object.entries(sent).filter(([, value]) => value !== undefined)) as PlanWrite['values'];
  return { values, ...(fields.products ? { links: fields.products } : {}) };
}
