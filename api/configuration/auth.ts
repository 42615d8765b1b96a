import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ConfigurationKey, PlatformApiKey } from '../../db/entities/index.ts';
import { keyUnusableReason, scopeAllows, type ConfigurationScope, type RequiredScope } from '../../domain/access/configuration-keys.ts';
import { hashToken } from '../shared/tokens.ts';
import { HttpError, unauthorized } from '../shared/errors.ts';
import { scopeToPlatform } from '../shared/orm-context.ts';

export interface AuthenticatedConfigurationKey {
  id: string;
  platformId: string;
  name: string;
  prefix: string;
  scopes: ConfigurationScope[];
  expiresAt: Date | null;
}

/** Whose audit log a request lands in; known as soon as the key is, even when the key is refused. */
export interface AuditSubject {
  platformId: string;
  keyPrefix: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    configurationKey: AuthenticatedConfigurationKey | null;
    auditSubject: AuditSubject | null;
  }
  interface FastifyContextConfig {
    /** The scope a configuration route demands; every configuration route declares one. */
    scope?: RequiredScope;
  }
}

/**
 * The configuration key of a request, from `X-API-KEY`. A platform API key, an unknown, revoked
 * or expired key gives 401; a key of a known platform is still named in that platform's audit log.
 */
async function authenticate(request: FastifyRequest): Promise<AuthenticatedConfigurationKey> {
  const token = request.headers['x-api-key'];
  if (typeof token !== 'string' || token.length === 0) throw unauthorized('missing configuration key (X-API-KEY)');
  const keyHash = hashToken(token);
  // Looked up before the request has a tenant, hence without the tenant filter.
  const key = await request.em.findOne(ConfigurationKey, { keyHash }, { filters: false });
  if (!key) {
    const apiKey = await request.em.findOne(PlatformApiKey, { keyHash });
    if (apiKey) {
      request.auditSubject = { platformId: apiKey.platform.id, keyPrefix: apiKey.prefix };
      throw unauthorized('a platform API key is not accepted here; use a configuration key');
    }
    throw unauthorized('invalid configuration key');
  }
  request.auditSubject = { platformId: key.platform.id, keyPrefix: key.prefix };
  const unusable = keyUnusableReason(key, new Date());
  if (unusable) throw unauthorized(`configuration key ${unusable}`);
  return {
    id: key.id,
    platformId: key.platform.id,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes as ConfigurationScope[],
    expiresAt: key.expiresAt ?? null,
  };
}

/** Authentication, then the route's scope (403); the request is then scoped to the key's platform. */
export function configurationKeyAuth(app: FastifyInstance): void {
  app.decorateRequest('configurationKey', null);
  app.decorateRequest('auditSubject', null);

  app.addHook('onRoute', (route) => {
    if (!route.config?.scope) throw new Error(`configuration route ${route.method} ${route.url} declares no scope`);
  });

  app.addHook('onRequest', async (request) => {
    const key = await authenticate(request);
    request.configurationKey = key;
    scopeToPlatform(request.em, key.platformId);
    // An unknown path under the interface is a 404 for any valid key (still audited).
    if (request.is404) return;
    const required = request.routeOptions.config.scope;
    if (!required || !scopeAllows(key.scopes, required)) {
      throw new HttpError(403, `this configuration key lacks the scope ${required ?? '(none declared)'}`);
    }
  });
}

/** The authenticated key of a request behind `configurationKeyAuth`. */
export function configurationKeyOf(request: FastifyRequest): AuthenticatedConfigurationKey {
  if (!request.configurationKey) throw unauthorized();
  return request.configurationKey;
}
