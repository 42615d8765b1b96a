/**
 * Kept only for workflows/shop/webhooks.ts and club-webhook.ts, which another branch is changing
 * (issue 25): they move to `./steps/run-effect.ts` after that merge and this file goes.
 */
export { runEffect, skipEffect, type OrderRef } from './steps/run-effect.ts';
