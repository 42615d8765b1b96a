/**
 * Whether placing an order at the shop's New status has anything of that status to run (DESIGN.md
 * section 10, "Order confirmation"), as one SQL expression of the placement statement (`:shop`,
 * `:status` the New status): its mail, a shop webhook of `order_placed`, the club at New, a mail
 * sequence tied to New, a status set automatically after New. Only then (or for a zero total)
 * does the placement start the confirmation's workflow: an order of a shop that configured none
 * costs no workflow.
 *
 * It may answer yes when an effect's finer conditions then find nothing to do (those stay in the
 * activities, e.g. a sequence's product narrowing); it must never answer no when one would run, so
 * an effect added to placing (workflows/shop/steps/status-effects.ts) is added here as well.
 */
export const PLACING_HAS_EFFECTS_SQL = `(
  exists (select 1 from shop_order_statuses s where s.shop_id = :shop and s.id = :status and s.send_email_on_status_change)
  or exists (select 1 from shop_webhooks w where w.shop_id = :shop and w.active and w.deleted_at is null and 'order_placed' = any(w.events))
  or exists (select 1 from shop_club_integrations c where c.shop_id = :shop and c.active and c.order_status_id = :status)
  or exists (select 1 from shop_mail_sequences q where q.shop_id = :shop and q.active and q.status_id = :status)
  or exists (select 1 from shop_order_statuses a where a.shop_id = :shop and a.automatically_set -> 'automatically_set_after_status_id' = to_jsonb(:status::int))
)`;
