import type { EntityManager } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/activity';
import { findOrderStatus } from '../../db/repositories/shop/order-status-config.ts';
import { awaitsFulfilment, findOrderByExternalId, markOrderCancelled, registerOrder } from '../../db/repositories/access/orders.ts';
import { courseLinesOf, linkedPlatformId, platformCourseIds } from '../../db/repositories/shop/course-access.ts';
import { orderedCourses, type OrderedCourse } from '../../domain/access/order-contents.ts';
import { normalizeEmail } from '../../domain/shared/email.ts';
import { accessOrderContents, accessOrderExternalId, withdrawsCourseAccess } from '../../domain/shop/course-access.ts';
import { done, skipped, type EffectOutcome } from '../../domain/shop/effects.ts';
import { unitsOfWork, type ActivityDb, type ActivityDeps } from '../shared/deps.ts';
import type { OrderEffectInput } from './order-effects.ts';

/** What the workflow does after the activity: record `outcome`, after starting the access workflow when one is named. */
export interface CourseAccessStep {
  outcome: EffectOutcome;
  /** The input of fulfilOrder, as `POST /api/orders` starts it (no address: the step reads the order's). */
  fulfil?: { platformId: string; orderId: string; courses: OrderedCourse[]; seq: number };
  cancel?: { platformId: string; orderId: string };
}

/**
 * The `course_access` effect (issue 14): the shop order's courses become an access order on the
 * shop's linked platform, registered exactly as `POST /api/orders` registers one, and a canceled
 * or returned shop order cancels it as `DELETE /api/orders/:id` does. The access workflows
 * themselves (fulfilOrder, cancelOrder) are started by the calling workflow, as its children.
 */
export function shopCourseAccessActivities({ orm }: ActivityDeps, db: ActivityDb = unitsOfWork(orm)) {
  const { orderFacts, recordedEffect } = db.reads;
  /** The outcome already recorded for this transition (a replayed or reset run does nothing again). */
  async function recorded(input: OrderEffectInput) {
    const em = db.shopEm(input.shopId);
    const outcome = await recordedEffect(em, { ...input, effect: 'course_access' });
    return { em, outcome: outcome && outcome.status !== 'failed' ? outcome : null };
  }

  async function orderOf(em: EntityManager, orderId: number) {
    const facts = await orderFacts(em, orderId);
    if (!facts) throw ApplicationFailure.nonRetryable(`order ${orderId} not found`, 'OrderNotFound');
    return facts.order;
  }

  /**
   * A recorded registration whose access order still awaits fulfilment: its workflow is named again
   * (started once under its id), since the clearing's one step records the outcome before the
   * workflow that starts it has committed its task.
   */
  async function fulfilStillDue(em: EntityManager, input: OrderEffectInput): Promise<Pick<CourseAccessStep, 'fulfil'>> {
    const platformId = await linkedPlatformId(em, input.shopId);
    const facts = platformId ? await orderFacts(em, input.orderId) : null;
    const registered = facts && (await findOrderByExternalId(em, platformId!, accessOrderExternalId(input.shopId, facts.order.ordinalNumber)));
    if (!registered || !awaitsFulfilment(registered)) return {};
    return { fulfil: { platformId: platformId!, orderId: registered.id, courses: orderedCourses(registered.ordered_contents), seq: Number(registered.seq) } };
  }

  return {
    /** Registers the access order of a cleared shop order (once per shop order: its external id is derived from the order). */
    async registerCourseAccessOrder(input: OrderEffectInput): Promise<CourseAccessStep> {
      const { em, outcome } = await recorded(input);
      if (outcome) return { outcome, ...(await fulfilStillDue(em, input)) };
      const lines = await courseLinesOf(em, input.shopId, input.orderId);
      if (lines.length === 0) return { outcome: skipped('no product of this order sells courses') };
      const platformId = await linkedPlatformId(em, input.shopId);
      if (!platformId) return { outcome: skipped('the shop is not linked to a course platform') };
      const known = await platformCourseIds(em, platformId, lines.flatMap((line) => line.courseAccess.map((c) => c.course_id)));
      const contents = accessOrderContents(lines, known);
      if (contents.length === 0) return { outcome: skipped('no course of this order is on the linked platform') };
      const order = await orderOf(em, input.orderId);
      // A cancel that ran before this clearing effect found no access order to cancel: never
      // grant for an order that is canceled or returned by now.
      if (withdrawsCourseAccess(order.orderStatus.getEntity().kind)) return { outcome: skipped('the order is canceled or returned') };
      const externalId = accessOrderExternalId(input.shopId, order.ordinalNumber);
      const { order: registered } = await registerOrder(em, platformId, {
        email: normalizeEmail(order.email),
        external_id: externalId,
        ordinal_number: String(order.ordinalNumber),
        gift_code: null,
        ordered_contents: contents,
      });
      const courses = orderedCourses(registered.ordered_contents);
      return {
        outcome: done(`access order ${registered.id} (${externalId}): ${courses.map((c) => `${c.courseId} at level ${c.accessLevel}`).join(', ')}`),
        ...(awaitsFulfilment(registered)
          ? { fulfil: { platformId, orderId: registered.id, courses, seq: Number(registered.seq) } }
          : {}),
      };
    },

    /** Cancels the order's access order when the new status is a canceled or returned one. */
    async cancelCourseAccessOrder(input: OrderEffectInput & { statusId: number }): Promise<CourseAccessStep> {
      const { em, outcome } = await recorded(input);
      if (outcome) return { outcome };
      const status = await findOrderStatus(em, input.statusId);
      if (!status || !withdrawsCourseAccess(status.kind)) return { outcome: skipped('this status does not withdraw course access') };
      const platformId = await linkedPlatformId(em, input.shopId);
      if (!platformId) return { outcome: skipped('the shop is not linked to a course platform') };
      const order = await orderOf(em, input.orderId);
      const externalId = accessOrderExternalId(input.shopId, order.ordinalNumber);
      const accessOrder = await findOrderByExternalId(em, platformId, externalId);
      if (!accessOrder) return { outcome: skipped('no access order was registered for this order') };
      await markOrderCancelled(em, platformId, accessOrder.id);
      return { outcome: done(`access order ${accessOrder.id} (${externalId}) cancelled`), cancel: { platformId, orderId: accessOrder.id } };
    },
  };
}

/** What a workflow proxies of this file: `activitiesOf<ShopCourseAccessActivities>(profile)` (workflows/shared/activities-of.ts). */
export type ShopCourseAccessActivities = ReturnType<typeof shopCourseAccessActivities>;
