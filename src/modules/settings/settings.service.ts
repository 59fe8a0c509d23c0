import { Injectable } from '@nestjs/common';
import type { InternalTrafficRequest } from './dto/internal-traffic.request';
import type { InternalTrafficResponse } from './dto/internal-traffic.response';
import {
  compileInternalTraffic,
  noInternalTraffic,
  type InternalTraffic,
  type InternalTrafficRules,
} from './rules/internal-traffic';
import { keepEverything, type RetentionPolicy } from './rules/retention';
import type { RetentionRequest } from './dto/retention.request';
import type { RetentionResponse } from './dto/retention.response';
import { SettingsRepository, type InternalTrafficRow, type RetentionRow } from './settings.repository';

/**
 * How long an instance uses its copy of an organization's internal traffic rules: a change applies on
 * the instance that made it at once, on the others within this.
 */
export const INTERNAL_TRAFFIC_CACHE_MS = 1000;
/** Copies kept at most (one per organization seen recently); past it the oldest go. */
const CACHED_ORGANIZATIONS = 10_000;

/** Organization settings: internal traffic (docs/api.md §6.8) and retention (§6.10). */
@Injectable()
export class SettingsService {
  private readonly rules = new Map<string, { rules: InternalTrafficRules; until: number }>();

  constructor(private readonly settings: SettingsRepository) {}

  async internalTraffic(organizationId: string): Promise<InternalTrafficResponse> {
    return toResponse(await this.settings.internalTraffic(organizationId));
  }

  /** Replaces the whole setting; it applies to opens and events received from now on. */
  async setInternalTraffic(organizationId: string, body: InternalTrafficRequest): Promise<InternalTrafficResponse> {
    const setting: InternalTraffic = {
      ipRanges: body.ipRanges.map((range) => range.trim()),
      visitorIds: body.visitorIds,
      userAgentContains: body.userAgentContains,
    };
    const row = await this.settings.saveInternalTraffic(organizationId, setting, new Date());
    this.rules.delete(organizationId);
    return toResponse(row);
  }

  async retention(organizationId: string): Promise<RetentionResponse> {
    const row = await this.settings.retention(organizationId);
    return { ...policyOf(row), updatedAt: row?.updated_at.toISOString() ?? null };
  }

  /** Replaces the whole setting; the next run (daily, or retention:run) applies it. */
  async setRetention(organizationId: string, body: RetentionRequest): Promise<RetentionResponse> {
    const policy: RetentionPolicy = {
      transcriptDays: body.transcriptDays,
      sessionDays: body.sessionDays,
      eventDays: body.eventDays,
    };
    const row = await this.settings.saveRetention(organizationId, policy, new Date());
    return { ...policyOf(row), updatedAt: row.updated_at.toISOString() };
  }

  /** The organization's retention periods (all null when it never set them). */
  async retentionPolicy(organizationId: string): Promise<RetentionPolicy> {
    return policyOf(await this.settings.retention(organizationId));
  }

  /** Every organization whose setting deletes something, with its periods. */
  async retentionPolicies(): Promise<{ organizationId: string; policy: RetentionPolicy }[]> {
    const rows = await this.settings.retentionsWithPeriods();
    return rows.map((row) => ({ organizationId: row.organization_id, policy: policyOf(row) }));
  }

  /** The rules an open or event of the organization is tested against (an instance's copy, INTERNAL_TRAFFIC_CACHE_MS old at most). */
  async internalTrafficRules(organizationId: string): Promise<InternalTrafficRules> {
    const now = Date.now();
    const cached = this.rules.get(organizationId);
    if (cached && cached.until > now) return cached.rules;
    const row = await this.settings.internalTraffic(organizationId);
    const rules = compileInternalTraffic(row ? settingOf(row) : noInternalTraffic());
    this.rules.delete(organizationId);
    if (this.rules.size >= CACHED_ORGANIZATIONS) this.rules.delete(this.rules.keys().next().value as string);
    this.rules.set(organizationId, { rules, until: now + INTERNAL_TRAFFIC_CACHE_MS });
    return rules;
  }
}

const settingOf = (row: InternalTrafficRow): InternalTraffic => ({
  ipRanges: row.ip_ranges,
  visitorIds: row.visitor_ids,
  userAgentContains: row.user_agent_contains,
});

function toResponse(row: InternalTrafficRow | null): InternalTrafficResponse {
  return { ...(row ? settingOf(row) : noInternalTraffic()), updatedAt: row?.updated_at.toISOString() ?? null };
}

const policyOf = (row: RetentionRow | null): RetentionPolicy =>
  row
    ? { transcriptDays: row.transcript_days, sessionDays: row.session_days, eventDays: row.event_days }
    : keepEverything();
