/**
 * The claim of a mail or webhook attempt: one statement marks the row as taken until a lease runs
 * out, so a retry that overlaps a still-running attempt (heartbeat timeout, network partition)
 * sends nothing, while a killed worker's claim runs out within the lease. The holder renews the
 * lease while it works.
 */

/** How often a running attempt renews its lease (a fraction of the 10 s leases). */
export const LEASE_RENEW_MS = 2_000;

export interface LeaseRenewal {
  /** Renews the lease; false when the claim is no longer held. */
  renew(): Promise<boolean>;
  /**
   * Called when a renewal finds the claim lost (no argument) or fails (the error); without it,
   * a failed renewal is simply tried again at the next tick.
   */
  onLost?(error?: unknown): void;
}

/** Renews a held claim every LEASE_RENEW_MS until `stop()`. */
export function keepLease({ renew, onLost }: LeaseRenewal): { stop(): void } {
  const timer = setInterval(() => {
    renew().then(
      (held) => {
        if (!held) onLost?.();
      },
      (error: unknown) => onLost?.(error),
    );
  }, LEASE_RENEW_MS);
  return { stop: () => clearInterval(timer) };
}
