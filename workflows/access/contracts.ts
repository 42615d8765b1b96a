/**
 * The access workflows other workflows (the shop's course access effect) start as children, by type
 * name, with their inputs: the starter imports these types, never the workflow module.
 */
import type { OrderFulfilmentInput } from '../../activities/access/grants.ts';

export type FulfilOrderInput = OrderFulfilmentInput;

export interface CancelOrderInput {
  platformId: string;
  orderId: string;
}

/** Type name -> arguments. */
export interface AccessChildWorkflows {
  fulfilOrder: [FulfilOrderInput];
  cancelOrder: [CancelOrderInput];
}
