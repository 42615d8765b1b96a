import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { latestAuditLogEntries } from '../../db/repositories/access/audit-log.ts';
import { auditLogRoute } from './audit-log-route.ts';
import { createConfigurationKey, findConfigurationKey, revokeConfigurationKey } from '../../db/repositories/access/configuration-keys.ts';
import { generateToken, hashToken, tokenPrefix } from '../shared/tokens.ts';
import { ErrorBody, ValidationErrorBody } from '../shared/schemas.ts';
import { notFound } from '../shared/errors.ts';
import { usePlatform } from './platform-scope.ts';
import { ConfigurationKeyParams, ConfigurationKeyReply, CreateConfigurationKeyBody, PlatformParams, RevokedKeyReply, data } from './schemas.ts';

/** Configuration keys (created "in the panel") and the platform's audit log of configuration requests. */
export const configurationKeyAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/platforms/:platform_id/configuration_keys',
    {
      schema: {
        operationId: 'admin.platforms.configuration_keys.create',
        summary: 'Issues a configuration key',
        description: 'A key of the configuration interface; `token` is shown only in this reply. An `expires_at` in the past gives a key that is already expired.',
        params: PlatformParams,
        body: CreateConfigurationKeyBody,
        response: { 201: data(ConfigurationKeyReply), 400: ValidationErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const platform = await usePlatform(request.em, request.params.platform_id);
      const { name, scopes, expires_at } = request.body;
      const token = generateToken('ck');
      const key = await createConfigurationKey(request.em, {
        platform: platform.id,
        name,
        prefix: tokenPrefix(token),
        keyHash: hashToken(token),
        scopes,
        expiresAt: expires_at ? new Date(expires_at) : null,
      });
      return reply.code(201).send({
        data: { id: key.id, name: key.name, prefix: key.prefix, scopes: key.scopes, expires_at: key.expiresAt?.toISOString() ?? null, token },
      });
    },
  );

  app.delete(
    '/platforms/:platform_id/configuration_keys/:key_id',
    {
      schema: {
        operationId: 'admin.platforms.configuration_keys.revoke',
        summary: 'Revokes a configuration key',
        description: 'Revokes the key: it stops working at once. Revoking a revoked key changes nothing.',
        params: ConfigurationKeyParams,
        response: { 200: data(RevokedKeyReply), 404: ErrorBody },
      },
    },
    async (request) => {
      await usePlatform(request.em, request.params.platform_id);
      const key = await findConfigurationKey(request.em, request.params.key_id);
      if (!key) throw notFound('configuration key');
      const revokedAt = await revokeConfigurationKey(request.em, key);
      return { data: { id: key.id, revoked_at: revokedAt.toISOString() } };
    },
  );

  auditLogRoute(app, {
    path: '/platforms/:platform_id/audit_log',
    operationId: 'admin.platforms.audit_log.list',
    summary: 'Lists the configuration audit log',
    description: 'Configuration requests of the platform, rejected ones included, newest first (at most 1000).',
    params: PlatformParams,
    read: async (em, params) => {
      await usePlatform(em, params.platform_id);
      return latestAuditLogEntries(em);
    },
  });
};
