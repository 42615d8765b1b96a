import type { EntityManager } from '@mikro-orm/postgresql';
import type { EffectOutcome } from '../../../domain/shop/effects.ts';
import { recordedEffect, type EffectKey } from './order-effects.ts';
import { loadOrderFacts, type OrderFacts } from './order-facts.ts';
import { statusMailSettings, type StatusMailSettings } from './order-status-config.ts';

/** What the order effects read of an order: its facts, the recorded outcome of an effect, and its shop's settings. */
export interface OrderReads {
  orderFacts(em: EntityManager, orderId: number): Promise<OrderFacts | null>;
  recordedEffect(em: EntityManager, key: EffectKey): Promise<EffectOutcome | null>;
  /** The shop's settings `read` reads (e.g. its integrations), under `name`. */
  shopSettings<T>(shopId: string, name: string, read: () => Promise<T>): Promise<T>;
}

/** The shop's Paid status (its mail settings), read once per step (a clearing's status mail, mail sequences and club webhook all ask). */
export function paidStatusOnce(reads: OrderReads, em: EntityManager, shopId: string): Promise<StatusMailSettings | null> {
  return reads.shopSettings(shopId, 'paidStatus', () => statusMailSettings(em, shopId, 'paid'));
}

/** `paidStatusOnce`'s id; every shop has its Paid status. */
export async function paidStatusIdOnce(reads: OrderReads, em: EntityManager, shopId: string): Promise<number> {
  const status = await paidStatusOnce(reads, em, shopId);
  if (!status) throw new Error(`shop ${shopId} has no PaidDefaultOrderStatus`);
  return status.id;
}

/** Each read when it is asked: what an activity on its own does. */
export const READ_EACH_TIME: OrderReads = { orderFacts: loadOrderFacts, recordedEffect, shopSettings: (_shopId, _name, read) => read() };

/**
 * The reads of one step over one order (the clearing's, issue 26 item 1), each made once for all
 * its activities, which loaded the order, its lines, status and shop and asked for their recorded
 * outcome each on its own. The effect log is read whole at the first ask: no part reads an entry
 * the step itself records, and nothing else records them meanwhile (the workflow runs its
 * per-effect steps only after the step). `forgetFacts` after a write to the order (the
 * invoice number, which the webhook bodies carry), so the next read of its facts is fresh. The
 * shop's settings are read once too (the step is one shop's, in one transaction).
 */
export function readsOnce(): OrderReads & { forgetFacts(): void } {
  const facts = new Map<number, Promise<OrderFacts | null>>();
  const logs = new Map<number, Promise<Map<string, EffectOutcome>>>();
  const settings = new Map<string, Promise<unknown>>();
  const entry = (key: Pick<EffectKey, 'source' | 'effect' | 'target'>) => `${key.source} ${key.effect} ${key.target ?? ''}`;
  function once<K, T>(reads: Map<K, Promise<T>>, key: K, read: () => Promise<T>): Promise<T> {
    let pending = reads.get(key);
    if (!pending) {
      pending = read();
      reads.set(key, pending);
      pending.catch(() => reads.delete(key));
    }
    return pending;
  }
  return {
    orderFacts: (em, orderId) => once(facts, orderId, () => loadOrderFacts(em, orderId)),
    async recordedEffect(em, key) {
      const log = await once(logs, key.orderId, async () => {
        const rows = await em.execute<(EffectOutcome & { source: EffectKey['source']; effect: EffectKey['effect']; target: string })[]>(
          'select source, effect, target, status, detail from shop_order_effects where shop_id = ? and order_id = ?',
          [key.shopId, key.orderId],
        );
        return new Map(rows.map((row) => [entry(row), { status: row.status, detail: row.detail }]));
      });
      return log.get(entry(key)) ?? null;
    },
    shopSettings: <T>(shopId: string, name: string, read: () => Promise<T>) => once(settings, `${shopId} ${name}`, read) as Promise<T>,
    forgetFacts: () => facts.clear(),
  };
}
