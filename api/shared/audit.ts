import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** Whose audit log a request lands in; known as soon as the key is, even when the key is refused. */
export interface AuditSubject {
  tenantId: string;
  keyPrefix: string;
}

/** One audited request: never a token, a query or a body. */
export interface AuditEntry {
  at: Date;
  method: string;
  path: string;
  status: number;
  keyPrefix: string;
}

export interface AuditLogOptions {
  /** Writes the entry to the subject's log on `em` (a fork of the request's), e.g. recordConfigurationRequest. */
  record(em: EntityManager, subject: AuditSubject, entry: AuditEntry): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    receivedAt: Date | null;
    /** Set by the key check of an audited interface; null: the request is not audited (no tenant known). */
    auditSubject: AuditSubject | null;
  }
}

/**
 * Every request of the encapsulating interface whose tenant is known (rejected ones included)
 * lands in that tenant's audit log before the reply leaves, so a client that got its reply finds
 * the entry. Only method, path, status and the key's visible prefix are kept.
 */
export const auditLog = fp(
  async (app: FastifyInstance, { record }: AuditLogOptions) => {
    app.decorateRequest('receivedAt', null);
    app.decorateRequest('auditSubject', null);
    // Callback hooks: a request with nothing to audit passes without a promise (issue 26 item 4).
    app.addHook('onRequest', (request, _reply, done) => {
      request.receivedAt = new Date();
      done();
    });

    const recorded = async (request: FastifyRequest, reply: FastifyReply, subject: AuditSubject, payload: unknown) => {
      try {
        await record(request.em.fork(), subject, {
          at: request.receivedAt ?? new Date(),
          method: request.method,
          path: request.url.split('?')[0] ?? request.url,
          status: reply.statusCode,
          keyPrefix: subject.keyPrefix,
        });
      } catch (err) {
        request.log.error({ err }, 'audit log entry could not be written');
      }
      return payload;
    };
    app.addHook('onSend', (request, reply, payload, done) => {
      const subject = request.auditSubject;
      if (!subject) return done(null, payload);
      return recorded(request, reply, subject, payload);
    });
  },
  { name: 'audit-log', dependencies: ['orm'] },
);
