import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { API_KEY_CHANGES_CHANNEL } from '../../db/repositories/access/api-keys.ts';
import { listenForKeyChanges } from '../shared/key-changes.ts';
import { ApiKeyCache } from './api-key-cache.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Platforms of recently used access keys (api-key-cache.ts); admin routes forget a platform's on change. */
    apiKeyCache: ApiKeyCache;
  }
}

/**
 * Hears the key changes every api instance announces (`pg_notify` in the changing transaction,
 * delivered at commit: db/repositories/access/api-keys.ts) on a connection of its own, and keeps
 * the cache on only while it hears them; a lost connection turns it off until it is back.
 */
export function listenForApiKeyChanges(databaseUrl: string, cache: ApiKeyCache, warn: (message: string) => void) {
  return listenForKeyChanges(databaseUrl, { channel: API_KEY_CHANGES_CHANNEL, label: 'API key' }, cache, warn);
}

/** Decorates `apiKeyCache` and keeps it in step with every instance's key changes. */
export const apiKeyCachePlugin = fp(
  async (app: FastifyInstance) => {
    const cache = new ApiKeyCache();
    app.decorate('apiKeyCache', cache);
    const listener = listenForApiKeyChanges(String(app.orm.config.get('clientUrl')), cache, (m) => app.log.warn(m));
    await listener.ready;
    app.addHook('onClose', () => listener.close());
  },
  { name: 'api-key-cache', dependencies: ['orm'] },
);
