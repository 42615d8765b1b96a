import pg from 'pg';
import type { KeyCache } from './key-cache.ts';

const RECONNECT_MS = 1_000;

/**
 * Hears the key changes every api instance announces on `channel` (`pg_notify` with the tenant's
 * id, in or after the changing transaction: delivered once it committed) on a connection of its
 * own, and keeps the cache on only while it hears them; a lost connection turns it off until it
 * is back.
 */
export function listenForKeyChanges(
  databaseUrl: string,
  { channel, label }: { channel: string; label: string },
  cache: Pick<KeyCache<unknown>, 'forgetTenant' | 'setEnabled'>,
  warn: (message: string) => void,
) {
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const lost = (c: pg.Client, why: string) => {
    if (client === c) client = undefined;
    cache.setEnabled(false);
    void c.end().catch(() => undefined);
    if (closed || retry) return;
    warn(`${label} cache off, ${why}; listening again in ${RECONNECT_MS} ms`);
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, RECONNECT_MS);
    retry.unref();
  };

  const connect = async () => {
    const c = new pg.Client({ connectionString: databaseUrl });
    c.on('notification', (message) => {
      if (message.channel === channel && message.payload) cache.forgetTenant(message.payload);
    });
    c.on('error', (error) => lost(c, `listener failed: ${error.message}`));
    c.on('end', () => client === c && lost(c, 'listener disconnected'));
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
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
