import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { AppConfigService } from '../../config/app-config';
import { LimitExceededError, type LimitState } from '../errors/domain-errors';
import { REDIS } from '../redis/redis.module';
import { WindowCounter, type ChargeResult, type Window, type WindowState } from './window-counter';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * The organization limits of docs/api.md §8 on shared Redis counters. Services charge a limit
 * before doing the work it guards; a refusal is a LimitExceededError carrying that limit's figures.
 */
@Injectable()
export class LimitsService {
  private readonly counter: WindowCounter;

  constructor(
    @Inject(REDIS) redis: Redis,
    private readonly config: AppConfigService,
  ) {
    this.counter = new WindowCounter(redis);
  }

  /** Link create/update, bulk actions, campaign create/rename/delete, job cancel/retry: 10 / 60 s. */
  async chargeLinkMutation(organizationId: string): Promise<void> {
    await this.chargeOrThrow([
      { key: `limit:link-mutations:${organizationId}`, limit: this.config.values.limits.linkMutationsPerMinute, ttlMs: MINUTE_MS },
    ]);
  }

  /**
   * One transcript read (docs/api.md §8.2): a daily organization quota that resets at UTC midnight, so the
   * window is keyed by the UTC date and lives until the next midnight.
   */
  async chargeTranscriptRead(organizationId: string, now = Date.now()): Promise<void> {
    const day = new Date(now).toISOString().slice(0, 10);
    const nextMidnight = Date.parse(`${day}T00:00:00.000Z`) + DAY_MS;
    await this.chargeOrThrow(
      [{ key: `limit:transcripts:${organizationId}:${day}`, limit: this.config.values.limits.transcriptDailyLimit, ttlMs: nextMidnight - now }],
      1,
      now,
    );
  }

  /**
   * Link creation and thumbnail render units (docs/api.md §8.4): hourly and daily windows per
   * organization, charged by the number of links (renders) a request asks for. Either both kinds
   * are reserved or neither is.
   */
  async reserveLinkUnits(organizationId: string, creationUnits: number, renderUnits: number): Promise<void> {
    const limits = this.config.values.limits;
    const creation = this.unitWindows('link-creation', organizationId, limits.linkCreationUnitsPerHour, limits.linkCreationUnitsPerDay);
    const render = this.unitWindows('thumbnail-render', organizationId, limits.thumbnailRenderUnitsPerHour, limits.thumbnailRenderUnitsPerDay);
    if (creationUnits > 0) await this.chargeOrThrow(creation, creationUnits);
    if (renderUnits <= 0) return;
    try {
      await this.chargeOrThrow(render, renderUnits);
    } catch (error) {
      await this.counter.refund(creation.map((w) => w.key), creationUnits);
      throw error;
    }
  }

  /** A 304 reply is not counted against the request rate (docs/api.md §8.1): give its charge back. */
  async refundRequest(rateLimitKey: string | undefined): Promise<void> {
    if (rateLimitKey) await this.counter.refund([rateLimitKey], 1);
  }

  /** Gives back units reserved for work that did not happen (failed or cancelled items). */
  async refundLinkUnits(organizationId: string, creationUnits: number, renderUnits: number): Promise<void> {
    if (creationUnits > 0) await this.counter.refund(this.unitWindows('link-creation', organizationId, 0, 0).map((w) => w.key), creationUnits);
    if (renderUnits > 0) await this.counter.refund(this.unitWindows('thumbnail-render', organizationId, 0, 0).map((w) => w.key), renderUnits);
  }

  private unitWindows(kind: string, organizationId: string, perHour: number, perDay: number): Window[] {
    return [
      { key: `limit:${kind}:hour:${organizationId}`, limit: perHour, ttlMs: HOUR_MS },
      { key: `limit:${kind}:day:${organizationId}`, limit: perDay, ttlMs: DAY_MS },
    ];
  }

  /** Charges every window or none; throws with the figures of the window that refused. */
  async chargeOrThrow(windows: Window[], cost = 1, now = Date.now()): Promise<ChargeResult> {
    const result = await this.counter.charge(windows, cost);
    if (!result.allowed) {
      throw new LimitExceededError(limitState(windows[result.refusedBy], result.windows[result.refusedBy], now));
    }
    return result;
  }
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
