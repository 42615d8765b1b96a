import type { FastifyInstance, FastifyRequest } from 'fastify';
import { platformForApiKey } from '../../db/repositories/access/api-keys.ts';
import fp from 'fastify-plugin';
import { refererAllowed } from '../../domain/access/referer.ts';
import { hashToken } from '../shared/tokens.ts';
import { unauthorized } from '../shared/errors.ts';
import { SANDBOX_ONLY } from '../shared/sandbox-only.ts';
import { scopeToPlatform } from '../shared/orm-context.ts';

export interface AuthenticatedPlatform {
  id: string;
  subdomain: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    platform: AuthenticatedPlatform | null;
  }
}

/**
 * Access interface authentication (spec: Authentication, access interface): a valid key of the
 * account, and when `Referer` is sent, a referring domain on the account's allowed list. The
 * request's entity manager is then scoped to that platform. Keys are looked up through the
 * api's key cache (api-key-cache.ts), so a request usually needs no statement for this.
 */
export const apiKeyAuth = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('platform', null);
    app.addHook('onRequest', async (request) => {
      const key = request.headers['x-api-key'];
      if (typeof key !== 'string' || key.length === 0) throw unauthorized('missing API key');
      const keyHash = hashToken(key);
      const row = await app.apiKeyCache.lookup(keyHash, () => platformForApiKey(request.em, keyHash));
      if (!row) throw unauthorized('invalid API key');
      if (app.sandboxOnly && !row.sandbox) throw unauthorized(SANDBOX_ONLY);
      const referer = request.headers.referer;
      if (referer !== undefined && !refererAllowed(referer, row.allowed_domains ?? [])) {
        throw unauthorized('Referer domain is not on the allowed list');
      }
      request.platform = { id: row.platform_id, subdomain: row.subdomain };
      scopeToPlatform(request.em, row.platform_id);
    });
  },
  { name: 'api-key-auth', dependencies: ['orm', 'api-key-cache'] },
);

/** The authenticated platform of a request behind `apiKeyAuth`. */
export function platformOf(request: FastifyRequest): AuthenticatedPlatform {
  if (!request.platform) throw unauthorized();
  return request.platform;
}
