/**
 * Which outside targets (a shop's webhook, the platform's mail relay, a tool) are slow at the
 * moment, as this worker process has seen them: a call to the target has been running longer than
 * `slowMs`, or one that ended took longer, within the last `coolDownMs`. A call's time includes
 * its own bookkeeping (claim, record), so a busy database can make a target look slow too: its
 * calls then take the activity's path, which is the slower but never the wrong one. A clearing's calls run as a local
 * activity, whose slots every workflow's local steps share; a slow target's calls go to their
 * own retried activity or delivery workflow instead, whose slots are their own (issue 38).
 */
export interface SlowTargets {
  isSlow(target: string): boolean;
  /** Runs `call`, timing it against `target`. */
  timed<T>(target: string, call: () => Promise<T>): Promise<T>;
}

export interface SlowTargetsOptions {
  slowMs?: number;
  coolDownMs?: number;
  now?: () => number;
}

export const SLOW_CALL_MS = 1_000;
export const SLOW_COOL_DOWN_MS = 60_000;
/** Targets whose cool-down ended are forgotten once this many are remembered. */
const FORGET_ABOVE = 1_000;

export function slowTargets({ slowMs = SLOW_CALL_MS, coolDownMs = SLOW_COOL_DOWN_MS, now = Date.now }: SlowTargetsOptions = {}): SlowTargets {
  /** The start of each call running now, by target. */
  const running = new Map<string, Set<{ startedAt: number }>>();
  /** Until when a target counts as slow after a slow call ended. */
  const slowUntil = new Map<string, number>();

  return {
    isSlow(target) {
      const until = slowUntil.get(target);
      if (until !== undefined && until <= now()) slowUntil.delete(target);
      else if (until !== undefined) return true;
      for (const call of running.get(target) ?? []) if (now() - call.startedAt > slowMs) return true;
      return false;
    },

    async timed(target, call) {
      const started = { startedAt: now() };
      const calls = running.get(target) ?? new Set();
      running.set(target, calls.add(started));
      try {
        return await call();
      } finally {
        calls.delete(started);
        if (calls.size === 0) running.delete(target);
        if (now() - started.startedAt > slowMs) slowUntil.set(target, now() + coolDownMs);
        if (slowUntil.size > FORGET_ABOVE) for (const [known, until] of slowUntil) if (until <= now()) slowUntil.delete(known);
      }
    },
  };
}
