import { Logger, type INestApplication } from '@nestjs/common';
import { describeError } from './common/errors/error-log';
import { Draining } from './common/shutdown/draining';
import { QueueIntake } from './common/shutdown/queue-intake';
import type { AppConfig } from './config/environment';
import type { LocalServices } from './local-services';
import { writeJsonLine } from './json-line';

/**
 * SIGTERM/SIGINT (docs/operations.md, "SIGTERM (rollout)"):
 * 1. /readyz answers 503 and every response closes its connection; the queues take no new job.
 * 2. For SHUTDOWN_DRAIN_DELAY_MS the server keeps accepting and serving, while load balancers see
 *    the 503 and move away. A worker-only process skips this: no traffic is routed to it.
 * 3. app.close(): the listener closes, requests in flight finish, each queue waits for its active
 *    job, connections close. Then the local services are left and the process exits 0.
 * SHUTDOWN_TIMEOUT_MS from the first signal caps it all: past it the process exits 1, and a job
 * still active is resumed by another worker once its lock expires, as after a crash.
 * A repeated SIGTERM changes nothing; a second SIGINT (Ctrl-C twice) ends the drain delay early.
 */
/** How long before SHUTDOWN_TIMEOUT_MS a shutdown held only by an absent Redis ends with exit 0. */
const REDIS_AWAY_MARGIN_MS = 1000;

export function stopOnSignals(app: INestApplication, config: AppConfig, services: LocalServices): void {
  const logger = new Logger('Shutdown');
  let endDrain: (() => void) | undefined;
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      if (signal === 'SIGINT') endDrain?.();
      return;
    }
    stopping = true;
    setTimeout(() => {
      logger.error({ timeoutMs: config.shutdownTimeoutMs }, 'Shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    // With Redis away, Bull's close of the queues waits for an answer that may never come: requests
    // are done by then and no job could be recorded as done anyway (an unfinished one resumes on
    // another worker), so the process exits 0 just before the timeout instead of failing it.
    setTimeout(
      () => {
        if (!app.get(QueueIntake).redisWasAway()) return;
        logger.warn({ timeoutMs: config.shutdownTimeoutMs }, 'Redis is away: exiting without closing the queues');
        process.exit(0);
      },
      Math.max(0, config.shutdownTimeoutMs - REDIS_AWAY_MARGIN_MS),
    ).unref();
    const drainDelayMs = config.shutdownDrainDelayMs;
    logger.log({ signal, drainDelayMs }, 'Draining before shutdown');
    if (config.nodeEnv === 'development' && drainDelayMs > 0)
      process.stdout.write(`Stopping in ${drainDelayMs / 1000} s (draining; Ctrl-C again to stop now)\n`);
    app.get(Draining).begin();
    app.get(QueueIntake).stop();
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, drainDelayMs);
      endDrain = () => {
        clearTimeout(timer);
        resolve();
      };
    })
      .then(() => logger.log('Closing: no new connections; finishing requests and active jobs'))
      .then(() => app.close())
      .then(() => services.release())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          writeJsonLine('error', 'Shutdown failed', { err: describeError(error) });
          process.exit(1);
        },
      );
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, stop);
}
