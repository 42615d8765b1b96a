/**
 * What the drill counts once the load has stopped: from the database (the grants' enrolments and
 * access sources, the orders, the clearings' effect log and download codes) and from Temporal
 * (each accepted clearing's workflow), per kind: lost, doubled and stuck.
 */
import type { Client } from '@temporalio/client';
import pg from 'pg';
import { CLEARING_PARTS, planOf } from '../../domain/shop/clearing-plan.ts';
import { clearOrderWorkflowId } from '../../domain/shop/workflow-ids.ts';
import { grantCounts } from './stack-kit.ts';
import type { Operation } from './operations.ts';

/** The effect-log entries of a clearing with no webhook configured: every part's own entry, the status mail under the Paid status's source. */
export const CLEARING_EFFECTS: readonly string[] = CLEARING_PARTS.map(planOf).flatMap(({ effect, source }) => (effect ? [`${source}/${effect}`] : []));

export interface KindFigures {
  sent: number;
  accepted: number;
  lost: number;
  doubled: number;
  stuck: number;
}

export interface Findings {
  grant: KindFigures;
  clearing: KindFigures;
  checkout: KindFigures;
  /** Lines naming each lost, doubled or stuck operation. */
  details: string[];
  /** True when nothing is left to happen: every accepted operation applied or its workflow closed. */
  settled: boolean;
}

type WorkflowState = 'RUNNING' | 'COMPLETED' | 'FAILED' | 'OTHER' | 'NOT_FOUND';

export async function countFindings(o: { databaseUrl: string; courseId: string; shopId: string; temporal: Client; operations: Operation[] }): Promise<Findings> {
  const details: string[] = [];
  const figures = (kind: Operation['kind']): KindFigures => {
    const ops = o.operations.filter((op) => op.kind === kind);
    return { sent: ops.length, accepted: ops.filter((op) => op.accepted).length, lost: 0, doubled: 0, stuck: 0 };
  };
  const grant = figures('grant');
  const clearing = figures('clearing');
  const checkout = figures('checkout');
  let settled = true;

  const applied = await grantCounts(o.databaseUrl, o.courseId);
  for (const op of o.operations.filter((op) => op.kind === 'grant')) {
    const n = applied.get(op.email) ?? { enrolments: 0, sources: 0 };
    if (op.accepted && n.enrolments === 0) {
      grant.lost++;
      settled = false;
      details.push(`grant lost: ${op.email} answered ${op.status}, no enrolment`);
    }
    if (n.enrolments > 1 || n.sources > 1) {
      grant.doubled++;
      details.push(`grant doubled: ${op.email}: ${n.enrolments} enrolments, ${n.sources} access sources`);
    }
  }

  const db = new pg.Client({ connectionString: o.databaseUrl });
  await db.connect();
  try {
    const clearings = o.operations.filter((op) => op.kind === 'clearing');
    const ordersPerEmail = new Map(
      (await db.query<{ email: string; n: string }>('select email, count(*) as n from shop_orders where shop_id = $1 and email = any($2) group by email', [o.shopId, clearings.map((op) => op.email)])).rows.map((r) => [r.email, Number(r.n)]),
    );
    const orderIds = clearings.filter((op) => op.accepted).map((op) => op.orderId!);
    const effects = new Map<number, string[]>();
    for (const row of (await db.query<{ order_id: number; entry: string; n: string }>("select order_id, source || '/' || effect as entry, count(*) as n from shop_order_effects where order_id = any($1) and source in ('clear', 'clear:paid') group by order_id, source, effect, target", [orderIds])).rows) {
      effects.set(row.order_id, [...(effects.get(row.order_id) ?? []), ...Array<string>(Number(row.n)).fill(row.entry)]);
    }
    const codes = new Map((await db.query<{ order_id: number; n: string }>('select order_id, count(*) as n from shop_download_codes where order_id = any($1) group by order_id, order_item_id, content_id having count(*) > 1', [orderIds])).rows.map((r) => [r.order_id, Number(r.n)]));
    for (const op of clearings) {
      if ((ordersPerEmail.get(op.email) ?? 0) > 1) {
        clearing.doubled++;
        details.push(`clearing doubled: ${ordersPerEmail.get(op.email)} orders placed for ${op.email}`);
      }
      if (!op.accepted) continue;
      const recorded = effects.get(op.orderId!) ?? [];
      const missing = CLEARING_EFFECTS.filter((entry) => !recorded.includes(entry));
      const twice = [...new Set(recorded.filter((entry, i) => recorded.indexOf(entry) !== i))];
      if (twice.length > 0 || codes.has(op.orderId!)) {
        clearing.doubled++;
        details.push(`clearing doubled: order ${op.orderId}: ${[...twice, ...(codes.has(op.orderId!) ? ['download codes'] : [])].join(', ')} recorded twice`);
      }
      const state = await workflowState(o.temporal, clearOrderWorkflowId({ shopId: o.shopId, orderId: op.orderId! }));
      if (state === 'RUNNING') {
        clearing.stuck++;
        settled = false;
        details.push(`clearing stuck: order ${op.orderId}: workflow running, missing ${missing.join(', ') || 'nothing'}`);
      } else if (missing.length > 0 || state !== 'COMPLETED') {
        clearing.lost++;
        if (state === 'NOT_FOUND' || missing.length > 0) settled = false;
        details.push(`clearing lost: order ${op.orderId}: workflow ${state}, missing ${missing.join(', ') || 'nothing'}`);
      }
    }

    const checkouts = o.operations.filter((op) => op.kind === 'checkout' && op.cartId);
    const ordersPerCart = new Map((await db.query<{ uuid: string; n: string }>('select uuid::text, count(*) as n from shop_orders where uuid = any($1::uuid[]) group by uuid', [checkouts.map((op) => op.cartId)])).rows.map((r) => [r.uuid, Number(r.n)]));
    const ordersPerCheckoutEmail = new Map(
      (await db.query<{ email: string; n: string }>('select email, count(*) as n from shop_orders where shop_id = $1 and email = any($2) group by email', [o.shopId, checkouts.map((op) => op.email)])).rows.map((r) => [r.email, Number(r.n)]),
    );
    for (const op of checkouts) {
      const n = ordersPerCart.get(op.cartId!) ?? 0;
      if (op.accepted && n === 0) {
        checkout.lost++;
        details.push(`checkout lost: cart ${op.cartId} answered ${op.status}, no order`);
      }
      if (n > 1 || (ordersPerCheckoutEmail.get(op.email) ?? 0) > 1) {
        checkout.doubled++;
        details.push(`checkout doubled: cart ${op.cartId}: ${ordersPerCheckoutEmail.get(op.email)} orders for ${op.email}`);
      }
    }
  } finally {
    await db.end();
  }
  return { grant, clearing, checkout, details, settled };
}

async function workflowState(client: Client, workflowId: string): Promise<WorkflowState> {
  try {
    const { status } = await client.workflow.getHandle(workflowId).describe();
    return status.name === 'RUNNING' || status.name === 'COMPLETED' || status.name === 'FAILED' ? status.name : 'OTHER';
  } catch (error) {
    if ((error as Error).name === 'WorkflowNotFoundError') return 'NOT_FOUND';
    throw error;
  }
}
