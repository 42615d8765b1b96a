import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError, unauthorized } from './errors.ts';
import type { SecuritySchemeName } from './openapi/interfaces.ts';

/** What every scoped key (configuration key, shop key) has once authenticated. */
export interface ScopedKey {
  id: string;
  prefix: string;
  scopes: readonly string[];
}

export interface ScopedKeyAuthOptions<K extends ScopedKey> {
  /** What the interface calls its keys, in 401 and 403 replies ("configuration key"). */
  label: string;
  /** The OpenAPI security scheme of these keys, stamped on each route as `config.keyScheme` (api/shared/openapi). */
  keyScheme: Extract<SecuritySchemeName, 'configurationKey' | 'shopKey'>;
  /**
   * The key `token` stands for, from the interface's own key table: throws a 401 for an unknown,
   * revoked or expired key (or a key of another kind), scopes the request to the key's tenant and
   * may name the request's audit subject, also before refusing the key.
   */
  authenticate(request: FastifyRequest, token: string): Promise<K>;
  /** Whether the key's scopes open a route that declares `required`. */
  allows(scopes: K['scopes'], required: string): boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scheme of the key the route's interface checks: the routes of two interfaces share `/api/v1/configuration`. */
    keyScheme?: SecuritySchemeName;
  }
  interface FastifyRequest {
    /** The authenticated key of a request behind `scopedKeyAuth`; null before (or without) it. */
    scopedKey: ScopedKey | null;
  }
}

/**
 * `X-API-KEY` authentication by a key with scopes, for every route of the encapsulating interface:
 * 401 without a usable key, then 403 when the key lacks the scope the route declares
 * (`config.scope`; a route without one is refused at start-up). An unknown path is a 404 for any
 * valid key. Each interface passes its own key lookup, so a key of one interface is a 401 on another.
 */
export const scopedKeyAuth = fp(
  async <K extends ScopedKey>(app: FastifyInstance, { label, keyScheme, authenticate, allows }: ScopedKeyAuthOptions<K>) => {
    app.decorateRequest('scopedKey', null);

    app.addHook('onRoute', (route) => {
      if (!route.config?.scope) throw new Error(`route ${String(route.method)} ${route.url} declares no scope`);
      route.config.keyScheme = keyScheme;
    });

    app.addHook('onRequest', async (request) => {
      const token = request.headers['x-api-key'];
      if (typeof token !== 'string' || token.length === 0) throw unauthorized(`missing ${label} (X-API-KEY)`);
      const key = await authenticate(request, token);
      request.scopedKey = key;
      if (request.is404) return;
      const required = request.routeOptions.config.scope;
      if (!required || !allows(key.scopes, required)) {
        throw new HttpError(403, `this ${label} lacks the scope ${required ?? '(none declared)'}`);
      }
    });
  },
  { name: 'scoped-key-auth', dependencies: ['orm'] },
);

/** The authenticated key of a request behind `scopedKeyAuth`, as the interface's key type. */
export function scopedKeyOf<K extends ScopedKey>(request: FastifyRequest): K {
  if (!request.scopedKey) throw unauthorized();
  return request.scopedKey as K;
}
