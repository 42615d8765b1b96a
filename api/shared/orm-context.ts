import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Orm } from '../../db/orm.ts';
import { TENANT_FILTER } from '../../db/tenant.ts';

declare module 'fastify' {
  interface FastifyInstance {
    orm: Orm;
  }
  interface FastifyRequest {
    /** This request's own identity map; never the global entity manager. */
    em: EntityManager;
  }
}

/** Decorates the ORM and gives every request a fork of the entity manager. */
export const ormPlugin = fp(
  async (app: FastifyInstance, { orm }: { orm: Orm }) => {
    app.decorate('orm', orm);
    app.decorateRequest('em', null as unknown as EntityManager);
    app.addHook('onRequest', (request, _reply, done) => {
      request.em = orm.em.fork();
      done();
    });
  },
  { name: 'orm' },
);

/** Scopes a request's queries to one platform (the tenant filter, db/tenant.ts). */
export function scopeToPlatform(em: EntityManager, platformId: string): void {
  em.setFilterParams(TENANT_FILTER, { platformId });
}
