/** A lease renewal that runs until stopped. */
export interface Heartbeat {
  stop(): void;
}

/**
 * Renews a lease every third of its length, so two renewals can fail in a row before it lapses.
 * `renew` resolves false once the lease is no longer ours (finished, or taken over after a lapse):
 * renewing stops. A failed renewal goes to `failed` and the next beat tries again; a renewal still
 * running when the next beat comes is not doubled.
 */
export function startHeartbeat(
  leaseMs: number,
  renew: () => Promise<boolean>,
  failed: (error: unknown) => void,
): Heartbeat {
  let renewing = false;
  const timer = setInterval(
    () => {
      if (renewing) return;
      renewing = true;
      void renew()
        .then((held) => {
          if (!held) clearInterval(timer);
        }, failed)
        .finally(() => {
          renewing = false;
        });
    },
    Math.max(1, Math.floor(leaseMs / 3)),
  );
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
