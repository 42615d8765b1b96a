/** Rows a path id names, for the shop's routes: 404 for a malformed, unknown or foreign id. */
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { pathId } from '../../../domain/shop/product-rules.ts';
import { notFound } from '../../shared/errors.ts';

export const DeletedReply = z.object({ data: z.object({ id: z.number(), deleted: z.literal(true) }) });

/** The row just written, read again with `find`; 404 when a concurrent DELETE removed it meanwhile. */
export async function readBackOr404<T>(em: EntityManager, id: number, find: (em: EntityManager, id: number) => Promise<T | null>, what: string): Promise<T> {
  const row = await find(em, id);
  if (!row) throw notFound(what);
  return row;
}

/** The row a path segment names, with `find`; 404 (`<what> not found`) for a malformed, unknown or foreign id. */
export async function rowOr404<T>(em: EntityManager, segment: string, find: (em: EntityManager, id: number) => Promise<T | null>, what: string): Promise<T> {
  const id = pathId(segment);
  const row = id === null ? null : await find(em, id);
  if (!row) throw notFound(what);
  return row;
}
