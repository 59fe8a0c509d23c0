import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { LimitExceededError, type LimitState } from '../errors/domain-errors';
import { countLimitRejection } from '../metrics/app-metrics';
import { REDIS } from '../redis/redis.module';
import { WindowCounter, type ChargeResult, type Window, type WindowState } from './window-counter';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Units to charge to every window of a group (a weighted quota). */
export interface Reservation {
  windows: Window[];
  units: number;
}

/**
 * Organization limits (docs/api.md §8) on shared Redis counters. Services charge a limit before
 * doing the work it guards; a refusal is a LimitExceededError carrying that limit's figures. Which
 * windows, keys and figures make a limit is the business of the module that owns it.
 */
@Injectable()
export class LimitsService {
  private readonly counter: WindowCounter;

  constructor(@Inject(REDIS) redis: Redis) {
    this.counter = new WindowCounter(redis);
  }

  /**
   * The organization's 60 s window of "link mutations" (docs/api.md §8.3). Here rather than in a module:
   * custom links, campaigns and jobs share it, and only custom-links may import the other two.
   */
  async chargeMutation(organizationId: string, perMinute: number): Promise<void> {
    await this.chargeOrThrow([{ key: `limit:link-mutations:${organizationId}`, limit: perMinute, ttlMs: MINUTE_MS }]);
  }

  /** Charges every window or none; throws with the figures of the window that refused. */
  async chargeOrThrow(windows: Window[], cost = 1, now = Date.now()): Promise<ChargeResult> {
    const result = await this.counter.charge(windows, cost);
    if (!result.allowed) {
      countLimitRejection(windows[result.refusedBy].key);
      throw new LimitExceededError(limitState(windows[result.refusedBy], result.windows[result.refusedBy], now));
    }
    return result;
  }

  /** Charges each group in order; when one refuses, gives back the groups already charged and throws. */
  async reserveAllOrNone(reservations: Reservation[]): Promise<void> {
    const charged: Reservation[] = [];
    try {
      for (const reservation of reservations) {
        if (reservation.units <= 0) continue;
        await this.chargeOrThrow(reservation.windows, reservation.units);
        charged.push(reservation);
      }
    } catch (error) {
      await this.refund(charged);
      throw error;
    }
  }

  /** Gives back units reserved for work that did not happen (failed or cancelled items). */
  async refund(reservations: Reservation[]): Promise<void> {
    for (const { windows, units } of reservations) await this.counter.refund(windows.map((w) => w.key), units);
  }

  /** A 304 reply is not counted against the request rate (docs/api.md §8.1): give its charge back. */
  async refundRequest(rateLimitKey: string | undefined): Promise<void> {
    if (rateLimitKey) await this.counter.refund([rateLimitKey], 1);
  }
}

/** A window per UTC day, `limit:<name>:<organization>:<date>`: it lives until the next 00:00 UTC. */
export function utcDayWindow(name: string, organizationId: string, limit: number, now = Date.now()): Window {
  const day = new Date(now).toISOString().slice(0, 10);
  const nextMidnight = Date.parse(`${day}T00:00:00.000Z`) + DAY_MS;
  return { key: `limit:${name}:${organizationId}:${day}`, limit, ttlMs: nextMidnight - now };
}

/** Fixed windows of 3600 s and 86400 s from their first charge, `limit:<name>:hour|day:<organization>`. */
export function hourAndDayWindows(name: string, organizationId: string, perHour: number, perDay: number): Window[] {
  return [
    { key: `limit:${name}:hour:${organizationId}`, limit: perHour, ttlMs: HOUR_MS },
    { key: `limit:${name}:day:${organizationId}`, limit: perDay, ttlMs: DAY_MS },
  ];
}

/** The X-RateLimit-* / Retry-After figures of one window. */
export function limitState(window: Pick<Window, 'limit'>, state: WindowState, now = Date.now()): LimitState {
  return {
    limit: window.limit,
    remaining: Math.max(0, window.limit - state.count),
    resetAt: Math.ceil((now + state.resetInMs) / 1000),
    retryAfterSeconds: Math.max(1, Math.ceil(state.resetInMs / 1000)),
  };
}
