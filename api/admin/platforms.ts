import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { replacePlatformApiKey } from '../../db/repositories/access/api-keys.ts';
import { createPlatform, replaceAllowedDomains } from '../../db/repositories/access/platforms.ts';
import { generateToken, hashToken, tokenPrefix } from '../shared/tokens.ts';
import { HttpError } from '../shared/errors.ts';
import { ErrorBody, ValidationErrorBody } from '../shared/schemas.ts';
import { usePlatform } from './platform-scope.ts';
import { AllowedDomainsBody, AllowedDomainsReply, ApiKeyReply, CreatePlatformBody, PlatformParams, PlatformReply, data } from './schemas.ts';

/** Revokes every live key of the platform and issues a new one; the old key stops at once. */
export async function issueApiKey(em: EntityManager, platformId: string): Promise<string> {
  const token = generateToken('ak');
  // Every api instance forgets the old key when this commits (api/access/api-key-cache.ts).
  await replacePlatformApiKey(em, platformId, { prefix: tokenPrefix(token), keyHash: hashToken(token) });
  return token;
}

export const platformRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/platforms',
    { schema: { operationId: 'admin.platforms.create', summary: 'Creates a platform', body: CreatePlatformBody, response: { 201: data(PlatformReply), 400: ValidationErrorBody, 409: ErrorBody } } },
    async (request, reply) => {
      const { subdomain, title, admin_email } = request.body;
      try {
        const created = await request.em.transactional(async (em) => {
          const platform = await createPlatform(em, { subdomain, title, adminEmail: admin_email ?? null });
          return { platform, apiKey: await issueApiKey(em, platform.id) };
        });
        const { platform, apiKey } = created;
        return reply.code(201).send({
          data: { id: platform.id, subdomain: platform.subdomain, title: platform.title, admin_email: platform.adminEmail ?? null, api_key: apiKey },
        });
      } catch (error) {
        if (error instanceof UniqueConstraintViolationException) throw new HttpError(409, `subdomain ${subdomain} is taken`);
        throw error;
      }
    },
  );

  app.post(
    '/platforms/:platform_id/api_key',
    { schema: { operationId: 'admin.platforms.api_key.rotate', summary: 'Issues a new platform API key', params: PlatformParams, response: { 201: data(ApiKeyReply), 404: ErrorBody } } },
    async (request, reply) => {
      const platform = await usePlatform(request.em, request.params.platform_id);
      const apiKey = await request.em.transactional((em) => issueApiKey(em, platform.id));
      app.apiKeyCache.forgetPlatform(platform.id);
      return reply.code(201).send({ data: { api_key: apiKey } });
    },
  );

  app.put(
    '/platforms/:platform_id/allowed_domains',
    { schema: { operationId: 'admin.platforms.allowed_domains.replace', summary: 'Replaces the platform\'s allowed domains', params: PlatformParams, body: AllowedDomainsBody, response: { 200: data(AllowedDomainsReply), 400: ValidationErrorBody, 404: ErrorBody } } },
    async (request) => {
      const platform = await usePlatform(request.em, request.params.platform_id);
      const domains = [...new Set(request.body.domains)];
      await replaceAllowedDomains(request.em, platform.id, domains);
      app.apiKeyCache.forgetPlatform(platform.id);
      return { data: { domains } };
    },
  );
};
