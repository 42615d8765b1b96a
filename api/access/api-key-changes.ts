import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import pg from 'pg';
import { API_KEY_CHANGES_CHANNEL } from '../../db/repositories/access/api-keys.ts';
import { ApiKeyCache } from './api-key-cache.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Platforms of recently used access keys (api-key-cache.ts); admin routes forget a platform's on change. */
    apiKeyCache: ApiKeyCache;
  }
}

const RECONNECT_MS = 1_000;

/**
 * Hears the key changes every api instance announces (`pg_notify` in the changing transaction,
 * delivered at commit: db/repositories/access/api-keys.ts) on a connection of its own, and keeps
 * the cache on only while it hears them; a lost connection turns it off until it is back.
 */
export function listenForApiKeyChanges(databaseUrl: string, cache: ApiKeyCache, warn: (message: string) => void) {
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const lost = (c: pg.Client, why: string) => {
    if (client === c) client = undefined;
    cache.setEnabled(false);
    void c.end().catch(() => undefined);
    if (closed || retry) return;
    warn(`API key cache off, ${why}; listening again in ${RECONNECT_MS} ms`);
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, RECONNECT_MS);
    retry.unref();
  };

  const connect = async () => {
    const c = new pg.Client({ connectionString: databaseUrl });
    c.on('notification', (message) => {
      if (message.channel === API_KEY_CHANGES_CHANNEL && message.payload) cache.forgetPlatform(message.payload);
    });
    c.on('error', (error) => lost(c, `listener failed: ${error.message}`));
    c.on('end', () => client === c && lost(c, 'listener disconnected'));
    try {
      await c.connect();
      await c.query(`LISTEN ${API_KEY_CHANGES_CHANNEL}`);
    } catch (error) {
      lost(c, `cannot listen: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (closed) return void c.end().catch(() => undefined);
    client = c;
    cache.setEnabled(true);
  };

  return {
    ready: connect(),
    async close() {
      closed = true;
      clearTimeout(retry);
      cache.setEnabled(false);
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
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
