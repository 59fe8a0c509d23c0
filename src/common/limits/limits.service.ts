import { Inject, Injectable } from '@nestjs/common';
import { LimitExceededError } from '../errors/domain-errors';
import { countLimitRejection } from '../metrics/app-metrics';
import { REDIS, type RedisClient } from '../redis/redis.module';
import { WindowCounter, type ChargeResult, type Window, type WindowState } from '../counters/window-counter';
import { limitState } from '../counters/windows';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Units to charge to every window of a group (a weighted quota). */
export interface Reservation {
  windows: Window[];
  units: number;
}

/** The request-rate window a request was charged to, when (a 304 gives the charge back), and its state after the charge. */
export interface RequestCharge {
  window: Window;
  chargedAt: number;
  state: WindowState;
}

/**
 * Organization limits (docs/api.md §8) on shared Redis counters. Services charge a limit before
 * doing the work it guards; a refusal is a LimitExceededError carrying that limit's figures. Which
 * windows, keys and figures make a limit is the business of the module that owns it.
 */
@Injectable()
export class LimitsService {
  private readonly counter: WindowCounter;

  constructor(@Inject(REDIS) redis: RedisClient) {
    this.counter = new WindowCounter(redis);
  }

  /**
   * The organization's 60 s window of "link mutations" (docs/api.md §8.3). Here rather than in a module:
   * custom links, campaigns and jobs share it, and only custom-links may import the other two.
   */
  async chargeMutation(organizationId: string, perMinute: number): Promise<void> {
    await this.chargeOrThrow([mutationWindow(organizationId, perMinute)]);
  }

  /** Each window's count and end without charging it (GET /api/v1/usage); a window not open yet: 0, and the end one opened now would get. */
  read(windows: Window[], now = Date.now()): Promise<WindowState[]> {
    return Promise.all(windows.map((window) => this.counter.read(window, now)));
  }

  /** Charges every window or none; throws with the figures of the window that refused. */
  async chargeOrThrow(windows: Window[], cost = 1, now = Date.now()): Promise<ChargeResult> {
    const result = await this.counter.charge(windows, cost, now);
    if (!result.allowed) {
      countLimitRejection(windows[result.refusedBy].key);
      const { count, endsAt } = result.windows[result.refusedBy];
      throw new LimitExceededError(limitState({ limit: windows[result.refusedBy].limit, endsAt }, count, now));
    }
    return result;
  }

  /**
   * Charges each group at the instant `at` in order; when one refuses, gives back the groups already
   * charged and throws. Whoever keeps the reserved work records `at` with it: refunds pass it back.
   */
  async reserveAllOrNone(reservations: Reservation[], at: number): Promise<void> {
    const charged: Reservation[] = [];
    try {
      for (const reservation of reservations) {
        if (reservation.units <= 0) continue;
        await this.chargeOrThrow(reservation.windows, reservation.units, at);
        charged.push(reservation);
      }
    } catch (error) {
      await this.refund(charged, at);
      throw error;
    }
  }

  /**
   * Gives back units reserved at `reservedAt` for work that did not happen (failed or cancelled
   * items) to the windows they were taken from; a window that has ended since keeps nothing to give back.
   */
  async refund(reservations: Reservation[], reservedAt: number): Promise<void> {
    for (const { windows, units } of reservations) await this.counter.refund(windows, units, reservedAt);
  }

  /** A 304 reply is not counted against the request rate (docs/api.md §8.1): give its charge back. */
  async refundRequest(charge: RequestCharge | undefined): Promise<void> {
    if (charge) await this.counter.refund([charge.window], 1, charge.chargedAt);
  }
}

/** The organization's link-mutation window (chargeMutation). */
export function mutationWindow(organizationId: string, perMinute: number): Window {
  return { key: `limit:link-mutations:${organizationId}`, limit: perMinute, ttlMs: MINUTE_MS };
}

/**
 * Fixed windows of 3600 s and 86400 s from their first charge, `limit:<name>:hour|day:{<organization>}`,
 * charged together by one script: the organization is their hash tag, so on a Redis Cluster both
 * land in one slot (and different organizations spread over the masters).
 */
export function hourAndDayWindows(name: string, organizationId: string, perHour: number, perDay: number): Window[] {
  return [
    { key: `limit:${name}:hour:{${organizationId}}`, limit: perHour, ttlMs: HOUR_MS },
    { key: `limit:${name}:day:{${organizationId}}`, limit: perDay, ttlMs: DAY_MS },
  ];
}
