import { deprecatePatch } from '@temporalio/workflow';
import type { ClearOrderInput } from './contracts.ts';
import { clearInOneStep } from './steps/clear-in-one-step.ts';

export type { ClearOrderInput };

/**
 * Order: placed, unpaid -> placed, paid (spec: States and transitions). The API has already
 * marked the order paid and set its Paid status; this runs what "also happens", every effect with
 * its own line in the effect log: invoice, download codes, analytics purchase, marketing tags,
 * course access on the linked platform (its access order a child workflow), the shop webhooks
 * subscribed to `order_cleared` (after the invoice), the sequences, subscriptions and automatic
 * statuses; and beside them what a change to the Paid status runs (source `clear:paid`): its
 * status mail, written once the download codes exist so `{{LINKI_DO_POBRANIA}}` holds them, and
 * the `order_status_changed` webhooks (the Paid status's club webhook, sequences and automatic
 * statuses are the clearing's own, run once).
 *
 * The database work is one local activity, one transaction (workflows/shop/steps/clear-in-one-step.ts,
 * issue 26 item 1); what goes out is handed to retried activities and delivery workflows. The
 * generations before it (every effect its own activity; then each its own local activity) are
 * retired (`deprecatePatch`; docs/decisions/mail-and-webhooks.md, "Retired workflow generations").
 */
export async function clearOrder({ shopId, orderId }: ClearOrderInput): Promise<void> {
  deprecatePatch('clearing-one-step');
  return clearInOneStep({ shopId, orderId, source: 'clear' });
}
