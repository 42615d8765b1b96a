import type { FastifyInstance } from 'fastify';
import { AuditLogEntry } from '../../db/entities/index.ts';

/**
 * Every configuration request whose platform is known (rejected ones included) lands in that
 * platform's audit log before the reply leaves, so a client that got its reply finds the entry.
 * Only method, path, status and the key's visible prefix are kept: never a token, a query or a body.
 */
export function auditLog(app: FastifyInstance): void {
  app.decorateRequest('receivedAt', null);
  app.addHook('onRequest', async (request) => {
    request.receivedAt = new Date();
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const subject = request.auditSubject;
    if (!subject) return payload;
    try {
      const em = request.em.fork();
      em.create(AuditLogEntry, {
        platform: subject.platformId,
        at: request.receivedAt ?? new Date(),
        method: request.method,
        path: request.url.split('?')[0] ?? request.url,
        status: reply.statusCode,
        keyPrefix: subject.keyPrefix,
      });
      await em.flush();
    } catch (err) {
      request.log.error({ err }, 'audit log entry could not be written');
    }
    return payload;
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    receivedAt: Date | null;
  }
}
