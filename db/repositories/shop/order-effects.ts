import type { EntityManager } from '@mikro-orm/postgresql';
import type { EffectOutcome, EffectSource, OrderEffectName } from '../../../domain/shop/effects.ts';

export interface EffectKey {
  shopId: string;
  orderId: number;
  source: EffectSource;
  effect: OrderEffectName;
  /** A webhook or sequence id when one transition has several effects of a kind; '' otherwise. */
  target?: string;
}

/** The recorded outcome of an effect, or null when it has not been recorded yet. */
export async function recordedEffect(em: EntityManager, key: EffectKey): Promise<EffectOutcome | null> {
  const rows = await em.execute<{ status: EffectOutcome['status']; detail: string }[]>(
    'select status, detail from shop_order_effects where shop_id = ? and order_id = ? and source = ? and effect = ? and target = ?',
    [key.shopId, key.orderId, key.source, key.effect, key.target ?? ''],
  );
  return rows[0] ?? null;
}

/**
 * Records (or updates: a failed effect retried later) the outcome of one effect; `keepRecorded`
 * records it only when nothing is recorded yet (a delivery's "under way", which must not hide the
 * outcome its workflow may have recorded first).
 */
export async function recordEffect(em: EntityManager, key: EffectKey, outcome: EffectOutcome, at: Date, { keepRecorded = false }: { keepRecorded?: boolean } = {}): Promise<void> {
  await recordEffects(em, [{ key, outcome, at }], { keepRecorded });
}

export type RecordEffect = typeof recordEffect;

/** `recordEffect` of several entries in one statement, in their order; their keys differ. */
export async function recordEffects(em: EntityManager, entries: { key: EffectKey; outcome: EffectOutcome; at: Date }[], { keepRecorded = false }: { keepRecorded?: boolean } = {}): Promise<void> {
  await em.execute(
    `insert into shop_order_effects (shop_id, order_id, source, effect, target, status, detail, at) values ${entries.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
     on conflict (order_id, source, effect, target) do ${keepRecorded ? 'nothing' : 'update set status = excluded.status, detail = excluded.detail, at = excluded.at'}`,
    entries.flatMap(({ key, outcome, at }) => [key.shopId, key.orderId, key.source, key.effect, key.target ?? '', outcome.status, outcome.detail, at]),
  );
}

export interface EffectLogRow {
  effect: OrderEffectName;
  /** The transition: `placed`, `clear`, `clear:paid` or `status:<change id>`. */
  source: string;
  status: EffectOutcome['status'];
  detail: string;
  at: Date;
}

/** An order's effect log, oldest first. */
export function listOrderEffects(em: EntityManager, shopId: string, orderId: number): Promise<EffectLogRow[]> {
  return em.execute<EffectLogRow[]>('select effect, source, status, detail, at from shop_order_effects where shop_id = ? and order_id = ? order by at, id', [shopId, orderId]);
}
