import { deprecatePatch } from '@temporalio/workflow';
import type { ClearOrderInput } from './contracts.ts';
import { clearInOneStep } from './steps/clear-in-one-step.ts';

export type { ClearOrderInput };

/**
 * Order: placed, unpaid -> placed, paid (spec: States and transitions). The API has already
 * marked the order paid and set its Paid status; this runs what "also happens", each part with its
 * line in the effect log. What the parts are, what each waits for, which run in the one database
 * transaction and which call out: domain/shop/clearing-plan.ts; how: steps/clear-in-one-step.ts.
 * The generations before the one step are retired (`deprecatePatch`; docs/decisions/mail-and-webhooks.md,
 * "Retired workflow generations").
 */
export async function clearOrder({ shopId, orderId }: ClearOrderInput): Promise<void> {
  deprecatePatch('clearing-one-step');
  return clearInOneStep({ shopId, orderId, source: 'clear' });
}
