import type { EntityManager } from '@mikro-orm/postgresql';
import type { IOrderStatus } from '../../../../db/entities/shop/index.ts';
import { findOrderStatus } from '../../../../db/repositories/shop/order-status-config.ts';
import { pathId } from '../../../../domain/shop/product-rules.ts';
import { notFound } from '../../../shared/errors.ts';

/** A status of the key's shop; 404 for another shop's or a malformed id. */
export async function statusOr404(em: EntityManager, segment: string): Promise<IOrderStatus> {
  const id = pathId(segment);
  const status = id === null ? null : await findOrderStatus(em, id);
  if (!status) throw notFound('order status');
  return status;
}

