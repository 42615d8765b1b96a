import type { FastifyRequest } from 'fastify';
import { findApiKeyByHash } from '../../db/repositories/access/api-keys.ts';
import { findConfigurationKeyByHash } from '../../db/repositories/access/configuration-keys.ts';
import { isSandboxPlatform } from '../../db/repositories/access/platforms.ts';
import { keyUnusableReason, scopeAllows, type ConfigurationScope, type RequiredScope } from '../../domain/access/configuration-keys.ts';
import type { ShopScope } from '../../domain/shop/scopes.ts';
import { hashToken } from '../shared/tokens.ts';
import { unauthorized } from '../shared/errors.ts';
import { SANDBOX_ONLY } from '../shared/sandbox-only.ts';
import { scopeToPlatform } from '../shared/orm-context.ts';
import { scopedKeyOf, type ScopedKeyAuthOptions } from '../shared/scoped-key-auth.ts';

export interface AuthenticatedConfigurationKey {
  id: string;
  platformId: string;
  name: string;
  prefix: string;
  scopes: ConfigurationScope[];
  expiresAt: Date | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a route behind `scopedKeyAuth` demands: a configuration or a shop scope. */
    scope?: RequiredScope | ShopScope;
  }
}

/**
 * The configuration key of a request, from `X-API-KEY`. A platform API key, an unknown, revoked
 * or expired key gives 401; a key of a known platform is still named in that platform's audit
 * log. The request is then scoped to the key's platform.
 */
async function authenticate(request: FastifyRequest, token: string): Promise<AuthenticatedConfigurationKey> {
  const keyHash = hashToken(token);
  // Looked up before the request has a tenant, hence without the tenant filter.
  const key = await findConfigurationKeyByHash(request.em, keyHash);
  if (!key) {
    const apiKey = await findApiKeyByHash(request.em, keyHash);
    if (apiKey) {
      request.auditSubject = { tenantId: apiKey.platform.id, keyPrefix: apiKey.prefix };
      throw unauthorized('a platform API key is not accepted here; use a configuration key');
    }
    throw unauthorized('invalid configuration key');
  }
  request.auditSubject = { tenantId: key.platform.id, keyPrefix: key.prefix };
  const unusable = keyUnusableReason(key, new Date());
  if (unusable) throw unauthorized(`configuration key ${unusable}`);
  if (request.server.sandboxOnly && !(await isSandboxPlatform(request.em, key.platform.id))) throw unauthorized(SANDBOX_ONLY);
  scopeToPlatform(request.em, key.platform.id);
  return {
    id: key.id,
    platformId: key.platform.id,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes as ConfigurationScope[],
    expiresAt: key.expiresAt ?? null,
  };
}

/** Options of `scopedKeyAuth` for the configuration interface: configuration keys and their scopes. */
export const configurationKeys: ScopedKeyAuthOptions<AuthenticatedConfigurationKey> = {
  label: 'configuration key',
  keyScheme: 'configurationKey',
  authenticate,
  allows: (scopes, required) => scopeAllows(scopes, required as RequiredScope),
};

/** The authenticated key of a configuration request. */
export function configurationKeyOf(request: FastifyRequest): AuthenticatedConfigurationKey {
  return scopedKeyOf<AuthenticatedConfigurationKey>(request);
}
