import type { Redis } from 'ioredis';

/** Addresses refused for a while (the one-hour block of persistent keyless requests). */
export interface Blocklist {
  block(address: string, durationMs: number): Promise<void>;
  /** Milliseconds the address stays blocked; 0 when it is not blocked. */
  remainingMs(address: string): Promise<number>;
}

/** In-process blocklist; `now` is injectable so tests can move the clock. */
export function createMemoryBlocklist(now: () => number = Date.now): Blocklist {
  const until = new Map<string, number>();
  const prune = () => {
    const t = now();
    for (const [address, end] of until) if (end <= t) until.delete(address);
  };
  return {
    async block(address, durationMs) {
      prune();
      until.set(address, now() + durationMs);
    },
    async remainingMs(address) {
      const end = until.get(address);
      if (end === undefined) return 0;
      const left = end - now();
      if (left > 0) return left;
      until.delete(address);
      return 0;
    },
  };
}

/** Blocklist shared by api instances: one Redis key per address, expiring with the block. */
export function createRedisBlocklist(redis: Redis, prefix: string): Blocklist {
  return {
    async block(address, durationMs) {
      await redis.set(prefix + address, '1', 'PX', durationMs);
    },
    async remainingMs(address) {
      // PTTL is -2 for a missing key and -1 for one without expiry (never written by us).
      return Math.max(0, await redis.pttl(prefix + address));
    },
  };
}
