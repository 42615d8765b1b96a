import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { platformOf } from '../../db/repositories/access/platforms.ts';
import { CONFIGURATION_SCOPES } from '../../domain/access/configuration-keys.ts';
import { ErrorBody, data } from '../shared/schemas.ts';
import { configurationKeyOf } from './auth.ts';

const SelfReply = z.object({
  platform: z.object({ subdomain: z.string(), title: z.string() }),
  key: z.object({
    name: z.string(),
    prefix: z.string(),
    scopes: z.array(z.enum(CONFIGURATION_SCOPES)),
    expires_at: z.iso.datetime().nullable(),
  }),
});

/** `GET /self`: the key's platform and the key itself; any valid key may ask. */
export const selfRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/self',
    { config: { scope: 'any' }, schema: { operationId: 'configuration.self.read', summary: 'Describes the configuration key in use', response: { 200: data(SelfReply), 401: ErrorBody } } },
    async (request) => {
      const key = configurationKeyOf(request);
      const platform = await platformOf(request.em, key.platformId);
      return {
        data: {
          platform: { subdomain: platform.subdomain, title: platform.title },
          key: { name: key.name, prefix: key.prefix, scopes: key.scopes, expires_at: key.expiresAt?.toISOString() ?? null },
        },
      };
    },
  );
};
