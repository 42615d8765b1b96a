import type { RecordedDomainEvent } from '../../domain/shared/events.ts';
import { db } from '../shared/activity-proxies.ts';
import { withEventsDispatched } from '../shared/steps/dispatch-events.ts';
import type { CancelOrderInput } from './contracts.ts';

/** Order: registered -> cancelled, "related access withdrawn". */
export async function cancelOrder({ platformId, orderId }: CancelOrderInput): Promise<{ events: RecordedDomainEvent[] }> {
  return withEventsDispatched(platformId, await db.withdrawOrderAccess({ platformId, orderId }));
}
