import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { ErrorBody, data } from '../shared/schemas.ts';
import { AuditLogReply, auditLogReply, type TenantParams } from './schemas.ts';

type AuditEntry = Parameters<typeof auditLogReply>[0][number];

export interface AuditLogRoute<P extends TenantParams> {
  /** `/platforms/:platform_id/audit_log`, `/shops/:shop_id/audit_log`. */
  path: string;
  operationId: string;
  summary: string;
  description: string;
  params: P;
  /** The tenant's entries, newest first (404 for an unknown tenant). */
  read(em: EntityManager, params: z.infer<P>): Promise<AuditEntry[]>;
}

/** GET of a tenant's configuration audit log (the platform's and the shop's): never a token, a query or a body. */
export function auditLogRoute<P extends TenantParams>(app: Parameters<FastifyPluginAsyncZod>[0], o: AuditLogRoute<P>): void {
  app.get(
    o.path,
    { schema: { operationId: o.operationId, summary: o.summary, description: o.description, params: o.params, response: { 200: data(AuditLogReply), 404: ErrorBody } } },
    async (request) => ({ data: auditLogReply(await o.read(request.em, request.params as z.infer<P>)) }),
  );
}
