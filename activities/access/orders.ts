import type { Sql } from '../../db/repositories/shared/pooled-transaction.ts';
import { orderFulfilled, type ParticipantRef, type RecordedDomainEvent } from '../../domain/shared/events.ts';
import type { OrderedCourse } from '../../domain/access/order-contents.ts';
import { filesOfOrder } from '../../domain/access/order-files.ts';
import { markOrderFulfilled } from '../../db/repositories/access/order-fulfilment.ts';
import { recordEvents } from '../shared/events.ts';

export interface CompleteOrderInput {
  platformId: string;
  orderId: string;
  participant: ParticipantRef;
  courses: OrderedCourse[];
}

/**
 * Marks a still-registered order fulfilled once, recording `order_fulfilled` under `operationKey`
 * (the order fulfilment step, activities/access/grants.ts).
 */
export async function completeOrderFulfilmentIn(
  tx: Sql,
  { platformId, orderId, participant, courses }: CompleteOrderInput,
  operationKey: string,
): Promise<{ fulfilled: boolean; events: RecordedDomainEvent[] }> {
  const order = await markOrderFulfilled(tx, platformId, orderId);
  const events = order
    ? [
        orderFulfilled({
          order: { id: orderId, external_id: order.external_id, ordinal_number: order.ordinal_number, gift_code: order.gift_code },
          participant,
          courses: courses.map((c) => ({ id: c.courseId, access_level: c.accessLevel })),
          files: filesOfOrder(order.ordered_contents),
        }),
      ]
    : [];
  const recorded = await recordEvents(tx, platformId, events, operationKey);
  return { fulfilled: recorded.length > 0, events: recorded };
}
