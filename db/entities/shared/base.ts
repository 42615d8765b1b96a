import { p } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';

/**
 * The base schema of every entity with a uuid key: `properties: { ...uuidPrimaryKey(), ... }`.
 * A function, so each entity gets its own property builder (discovery writes into it).
 */
export const uuidPrimaryKey = () => ({ id: p.uuid().primary().onCreate(() => randomUUID()) });
