/**
 * A subscription plan's own subscriber mail texts (DESIGN.md section 10), one per plan and kind.
 * Every function takes an entity manager scoped to the shop (shopEm).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { SubscriptionPlanEmail, type ISubscriptionPlanEmail } from '../../entities/shop/index.ts';
import type { MailText, PlanEmailKind } from '../../../domain/shop/subscription-mails.ts';

/** Sets the plan's text of `kind` in one statement (concurrent PUTs: the last one wins, never a second row). */
export async function savePlanEmail(em: EntityManager, shopId: string, planId: number, kind: PlanEmailKind, text: MailText): Promise<ISubscriptionPlanEmail> {
  await em.execute(
    `insert into shop_subscription_plan_emails (shop_id, plan_id, kind, subject, content, updated_at) values (?, ?, ?, ?, ?, now())
     on conflict (plan_id, kind) do update set subject = excluded.subject, content = excluded.content, updated_at = excluded.updated_at`,
    [shopId, planId, kind, text.subject, text.content],
  );
  return em.findOneOrFail(SubscriptionPlanEmail, { plan: planId, kind }, { refresh: true });
}

/** The plan's text of `kind`, or null when the built-in one goes. */
export async function planEmail(em: EntityManager, planId: number, kind: PlanEmailKind): Promise<MailText | null> {
  const row = await em.findOne(SubscriptionPlanEmail, { plan: planId, kind });
  return row && { subject: row.subject, content: row.content };
}
