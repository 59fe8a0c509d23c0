/**
 * Generated from the migrated schema by `npm run db:types`: do not edit. One interface per table,
 * typed as pg returns the columns here (int8 and numeric as strings, timestamptz and date as Date,
 * json and jsonb parsed). Code reads rows through src/common/database/rows.ts.
 */
import type { ColumnType } from 'kysely';

export type Generated<T> =
  T extends ColumnType<infer S, infer I, infer U> ? ColumnType<S, I | undefined, U> : ColumnType<T, T | undefined, T>;

export type Int8 = ColumnType<string, bigint | number | string, bigint | number | string>;

export type Json = JsonValue;

export type JsonArray = JsonValue[];

export type JsonObject = {
  [x: string]: JsonValue | undefined;
};

export type JsonPrimitive = boolean | number | string | null;

export type JsonValue = JsonArray | JsonObject | JsonPrimitive;

export type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface Accounts {
  account_domain: string;
  booked_sessions: number;
  company_name: string | null;
  created_at: Generated<Timestamp>;
  high_intent_users: number;
  id: string;
  last_seen_at: Timestamp;
  organization_id: string;
  qualified_users: number;
  summary_markdown: string | null;
  total_sessions: number;
  total_time_spent_seconds: Int8;
  total_users: number;
  updated_at: Generated<Timestamp>;
}

export interface Agents {
  conversation_tests: Generated<Json>;
  organization_id: string;
  production_version: number | null;
  staging_version: number | null;
  updated_at: Generated<Timestamp>;
}

export interface AgentVersions {
  created_at: Generated<Timestamp>;
  organization_id: string;
  sections: Json;
  sections_etag: string;
  version: number;
}

export interface ApiKeyLookups {
  id: string;
  key_hash: string;
  organization_id: string;
}

export interface ApiKeys {
  created_at: Generated<Timestamp>;
  id: string;
  key_hash: string;
  last_used_at: Timestamp | null;
  name: string | null;
  organization_id: string;
  prefix: string;
  revoked_at: Timestamp | null;
  scopes: string[];
}

export interface CampaignEngagement {
  active_links: Generated<Int8>;
  bot_scanned_only: Generated<Int8>;
  campaign_id: string;
  engaged: Generated<Int8>;
  engaged_sessions: Generated<Int8>;
  ephemeral_page_views: Generated<Int8>;
  first_opened_at: Timestamp | null;
  last_activity_at: Timestamp | null;
  last_opened_at: Timestamp | null;
  lead_submitted: Generated<Int8>;
  links: Generated<Int8>;
  loads: Generated<Int8>;
  meeting_booked: Generated<Int8>;
  meeting_clicked: Generated<Int8>;
  opened: Generated<Int8>;
  organization_id: string;
  page_views: Generated<Int8>;
  persistent_visitors: Generated<Int8>;
  sessions: Generated<Int8>;
  started: Generated<Int8>;
  started_sessions: Generated<Int8>;
}

export interface CampaignIds {
  campaign_id: string | null;
  organization_id: string | null;
}

export interface Campaigns {
  created_at: Generated<Timestamp>;
  id: string;
  name: string;
  organization_id: string;
  updated_at: Generated<Timestamp>;
}

export interface CustomLinkJobItems {
  custom_link_id: string;
  error_code: string | null;
  error_message: string | null;
  external_id: string | null;
  index: number;
  input: Json;
  job_id: string;
  organization_id: string;
  retry_of_index: number | null;
  retry_of_job_id: string | null;
  status: string;
  updated_at: Generated<Timestamp>;
}

export interface CustomLinkJobs {
  campaign_id: string | null;
  campaign_name: string | null;
  cancel_requested: Generated<boolean>;
  completed_at: Timestamp | null;
  created_at: Generated<Timestamp>;
  id: string;
  lease_owner: string | null;
  lease_until: Timestamp | null;
  organization_id: string;
  parent_job_id: string | null;
  render_units: Generated<number>;
  started_at: Timestamp | null;
  status: string;
  total_items: number;
  type: string;
  updated_at: Generated<Timestamp>;
}

export interface CustomLinks {
  access_closed_at: Timestamp | null;
  account_domain: string | null;
  active: Generated<boolean>;
  bot_open_count: Generated<number>;
  bot_opens: Generated<Json>;
  campaign_id: string | null;
  company: string | null;
  context: string | null;
  created_at: Generated<Timestamp>;
  display_name: string;
  email: string | null;
  engaged_session_count: Generated<number>;
  ephemeral_page_view_count: Generated<number>;
  expired_redirect_url: string | null;
  expires_at: Timestamp | null;
  external_id: string | null;
  first_engaged_at: Timestamp | null;
  first_lead_submitted_at: Timestamp | null;
  first_meeting_booked_at: Timestamp | null;
  first_meeting_clicked_at: Timestamp | null;
  first_name: string | null;
  first_opened_at: Timestamp | null;
  first_started_at: Timestamp | null;
  human_opens: Generated<number>;
  id: string;
  internal_open_count: Generated<number>;
  job_id: string | null;
  last_activity_at: Timestamp | null;
  last_activity_event_id: string | null;
  last_activity_type: string | null;
  last_name: string | null;
  last_opened_at: Timestamp | null;
  load_count: Generated<number>;
  max_human_opens: number | null;
  open_observed: Generated<boolean>;
  organization_id: string;
  page_view_count: Generated<number>;
  persistent_visitor_count: Generated<number>;
  phone: string | null;
  prospect_domain: string | null;
  prospect_logo_url: string | null;
  role: string | null;
  search_text: Generated<string | null>;
  session_count: Generated<number>;
  share_description: string | null;
  share_thumbnail_url: string | null;
  share_title: string | null;
  slug: string;
  stage: Generated<string>;
  started_session_count: Generated<number>;
  thumbnail_attempts: Generated<number>;
  thumbnail_error_code: string | null;
  thumbnail_error_message: string | null;
  thumbnail_render_id: string | null;
  thumbnail_status: string;
  updated_at: Generated<Timestamp>;
}

export interface CustomLinkSearch {
  company_key: string | null;
  custom_link_id: string;
  organization_id: string;
  search_text: string | null;
}

export interface CustomLinkSlugs {
  custom_link_id: string;
  organization_id: string;
  slug: string;
}

export interface EngagementFolds {
  folded_at: Timestamp | null;
  folded_events: Generated<Int8>;
  organization_id: string;
}

export interface EventFacetDays {
  bot: boolean;
  day: Timestamp;
  events: number;
  facet: string;
  internal: boolean;
  organization_id: string;
  type: string;
  value: string | null;
}

export interface EventFacetHours {
  bot: boolean;
  events: number;
  facet: string;
  hour: Timestamp;
  internal: boolean;
  organization_id: string;
  type: string;
  value: string | null;
}

export interface EventFacetVersions {
  organization_id: string;
  version: Int8;
}

export interface ExportChunks {
  data: Buffer;
  export_id: string;
  organization_id: string;
  run_id: string;
  seq: number;
}

export interface Exports {
  completed_at: Timestamp | null;
  created_at: Generated<Timestamp>;
  expires_at: Timestamp | null;
  filters: Generated<Json>;
  format: string;
  id: string;
  lease_owner: string | null;
  lease_until: Timestamp | null;
  organization_id: string;
  resource: string;
  row_count: number | null;
  run_id: string | null;
  status: Generated<string>;
}

export interface IdempotencyRecords {
  created_at: Generated<Timestamp>;
  expires_at: Timestamp;
  fingerprint: string;
  idempotency_key: string;
  lease_expires_at: Timestamp;
  lease_token: string;
  method: string;
  organization_id: string;
  response_body: string | null;
  response_headers: Json | null;
  response_status: number | null;
  route: string;
  state: string;
}

export interface InternalTrafficSettings {
  ip_ranges: Generated<string[]>;
  organization_id: string;
  updated_at: Timestamp;
  user_agent_contains: Generated<string[]>;
  visitor_ids: Generated<string[]>;
}

export interface LinkCardStates {
  link_id: string | null;
  organization_id: string | null;
  thumbnail_status: string | null;
}

export interface LinkDistinctValues {
  custom_link_id: string;
  kind: string;
  organization_id: string;
  value: string;
}

export interface LinkEventBatches {
  batch_id: string;
  event_count: number;
  organization_id: string;
  received_at: Timestamp;
  replay: Generated<boolean>;
}

export interface LinkEventHours {
  bot: boolean;
  browser: string | null;
  country: string | null;
  custom_link_id: string;
  device_type: string | null;
  events: number;
  hour: Timestamp;
  internal: boolean;
  organization_id: string;
  os: string | null;
  referrer_domain: string | null;
  type: string;
  utm_campaign: string | null;
  utm_medium: string | null;
  utm_source: string | null;
}

export interface LinkEventIds {
  event_id: string;
  organization_id: string;
  received_at: Timestamp;
}

export interface LinkEvents {
  batch_id: string;
  bot: boolean;
  bot_reason: string | null;
  browser: string | null;
  country: string | null;
  custom_link_id: string;
  device_type: string | null;
  event_id: string;
  internal_reason: string | null;
  occurred_at: Timestamp;
  organization_id: string;
  os: string | null;
  page_view_id: string | null;
  received_at: Timestamp;
  referrer_domain: string | null;
  session_id: string | null;
  type: string;
  utm_campaign: string | null;
  utm_content: string | null;
  utm_medium: string | null;
  utm_source: string | null;
  utm_term: string | null;
  visitor_id: string | null;
}

export interface LinkRollups {
  account_domain: string | null;
  active: boolean | null;
  bot_open_count: number | null;
  campaign_id: string | null;
  created_at: Timestamp | null;
  first_lead_submitted_at: Timestamp | null;
  first_meeting_booked_at: Timestamp | null;
  first_meeting_clicked_at: Timestamp | null;
  first_opened_at: Timestamp | null;
  last_activity_at: Timestamp | null;
  last_opened_at: Timestamp | null;
  link_id: string | null;
  open_observed: boolean | null;
  organization_id: string | null;
  stage: string | null;
}

export interface LinkSessions {
  custom_link_id: string;
  ended_at: Timestamp | null;
  engaged_at: Timestamp | null;
  first_seen_at: Timestamp;
  opened_at: Timestamp | null;
  organization_id: string;
  session_id: string;
  started_at: Timestamp | null;
}

export interface Organizations {
  created_at: Generated<Timestamp>;
  id: string;
  name: string;
}

export interface People {
  account_domain: string | null;
  booked_sessions: number;
  business: string | null;
  buying_intent: string | null;
  created_at: Generated<Timestamp>;
  email_key: string;
  first_seen_at: Timestamp;
  first_source: string | null;
  id: string;
  intent_calculated_at: Timestamp;
  intent_score: number;
  last_location: string | null;
  last_seen_at: Timestamp;
  last_source: string | null;
  name: string | null;
  organization_id: string;
  overall_intent: string;
  phone: string | null;
  qualification_assessed_at: Timestamp | null;
  qualification_rationale: string | null;
  qualification_rubric_version_id: string | null;
  qualification_source: string | null;
  qualification_status: string | null;
  summary_markdown: string | null;
  total_sessions: number;
  total_time_spent_seconds: Int8;
  updated_at: Generated<Timestamp>;
}

export interface PersonAccounts {
  account_domain: string | null;
  email_key: string | null;
  organization_id: string | null;
  person_id: string | null;
}

export interface PersonIntents {
  intent_calculated_at: Timestamp | null;
  intent_score: number | null;
  organization_id: string | null;
  overall_intent: string | null;
  person_id: string | null;
}

export interface PrivacyErasures {
  attempts: Generated<number>;
  completed_at: Timestamp | null;
  counts: Json | null;
  created_at: Timestamp;
  failure_reason: string | null;
  id: string;
  lease_owner: string | null;
  lease_until: Timestamp | null;
  organization_id: string;
  person_id: string | null;
  started_at: Timestamp | null;
  status: string;
  subject_email: string | null;
  subject_person_id: string | null;
  subject_phone: string | null;
  subject_resolved: Generated<boolean>;
  suppress: boolean;
}

export interface PrivacySuppressions {
  created_at: Generated<Timestamp>;
  email_hash: string;
  organization_id: string;
}

export interface PublishJobs {
  completed_at: Timestamp | null;
  created_at: Generated<Timestamp>;
  error_code: string | null;
  error_message: string | null;
  id: string;
  lease_owner: string | null;
  lease_until: Timestamp | null;
  organization_id: string;
  requested_version: number;
  status: string;
  updated_at: Generated<Timestamp>;
}

export interface RetentionSettings {
  event_days: number | null;
  organization_id: string;
  session_days: number | null;
  transcript_days: number | null;
  updated_at: Timestamp;
}

export interface SessionCountDeltas {
  booked_status: string | null;
  buying_intent: string | null;
  effective_qualification_status: string | null;
  hour: Timestamp | null;
  month: Timestamp;
  organization_id: string;
  sessions: Int8;
}

export interface SessionCounts {
  booked_status: string | null;
  buying_intent: string | null;
  effective_qualification_status: string | null;
  month: Timestamp;
  organization_id: string;
  sessions: Int8;
}

export interface SessionDayCounts {
  booked_status: string | null;
  buying_intent: string | null;
  day: Timestamp;
  effective_qualification_status: string | null;
  organization_id: string;
  sessions: Int8;
}

export interface SessionDayTotals {
  day: Timestamp;
  organization_id: string;
  sessions: Int8;
}

export interface SessionEmailGramSamples {
  entries: number;
  organization_id: string;
  sampled_at: Timestamp;
  sessions: Int8;
}

export interface SessionEmailGramShares {
  entries: number;
  gram: Int8;
  organization_id: string;
}

export interface SessionEmails {
  booked_status: string | null;
  buying_intent: string | null;
  effective_qualification_status: string | null;
  email_key: string;
  id: string;
  organization_id: string;
  start_time: Timestamp;
}

export interface SessionHourCounts {
  booked_status: string | null;
  buying_intent: string | null;
  effective_qualification_status: string | null;
  hour: Timestamp;
  organization_id: string;
  sessions: Int8;
}

export interface SessionHourTotals {
  hour: Timestamp;
  organization_id: string;
  sessions: Int8;
}

export interface SessionIds {
  id: string;
  organization_id: string;
}

export interface SessionObservations {
  at: Timestamp | null;
  custom_link_id: string | null;
  organization_id: string | null;
  session_id: string | null;
  type: string | null;
}

export interface Sessions {
  analysis_status: string;
  booked_status: string | null;
  business: string | null;
  buying_intent: string | null;
  created_at: Generated<Timestamp>;
  custom_link_campaign_id: string | null;
  custom_link_id: string | null;
  details: Json;
  device: string | null;
  display_id: string | null;
  effective_qualification_status: string | null;
  email: string | null;
  email_key: string | null;
  end_time: Timestamp | null;
  engagement_level: string | null;
  environment: string;
  fingerprint: string;
  geo_country: string | null;
  id: string;
  name: string | null;
  organization_id: string;
  person_id: string | null;
  phone: string | null;
  primary_intent: string | null;
  qualification_assessed_at: Timestamp | null;
  qualification_rationale: string | null;
  qualification_rubric_version_id: string | null;
  qualification_source: string | null;
  qualification_status: string | null;
  sentiment: string | null;
  session_status: string | null;
  session_type: string | null;
  start_time: Timestamp;
  summary_markdown: string | null;
  tracking: Json;
  updated_at: Generated<Timestamp>;
  utm_source: string | null;
}

export interface SessionTranscripts {
  entries: Json;
  organization_id: string;
  session_id: string;
  total: number;
  updated_at: Generated<Timestamp>;
}

export interface SuggestionGroups {
  changes: Json;
  created_at: Generated<Timestamp>;
  generation_revision: Generated<number>;
  id: string;
  organization_id: string;
  status: Generated<string>;
  updated_at: Generated<Timestamp>;
}

export interface SuppressionSalts {
  organization_id: string;
  salt: Buffer;
}

export interface ThumbnailImages {
  created_at: Generated<Timestamp>;
  custom_link_id: string;
  hash: string;
  organization_id: string;
  png: Buffer;
}

export interface ThumbnailRenders {
  created_at: Generated<Timestamp>;
  custom_link_id: string;
  id: string;
  job_id: string;
  lease_owner: string | null;
  lease_until: Timestamp | null;
  organization_id: string;
  status: string;
  updated_at: Generated<Timestamp>;
}

export interface TranscriptDailyReads {
  day: Timestamp;
  organization_id: string;
  reads: number;
}

export interface VisibleSessions {
  booked_status: string | null;
  custom_link_id: string | null;
  effective_qualification_status: string | null;
  organization_id: string | null;
  person_id: string | null;
  session_id: string | null;
}

export interface WebhookDeliveries {
  attempt: number;
  created_at: Generated<Timestamp>;
  duration_ms: number | null;
  endpoint_id: string;
  error: string | null;
  id: string;
  lease_owner: string | null;
  lease_until: Timestamp | null;
  message_id: string;
  next_attempt_at: Timestamp | null;
  organization_id: string;
  response_status: number | null;
  status: string;
}

export interface WebhookEndpoints {
  active: Generated<boolean>;
  created_at: Generated<Timestamp>;
  description: string | null;
  event_types: string[];
  failing_since: Timestamp | null;
  filter_campaign_ids: string[] | null;
  filter_link_ids: string[] | null;
  id: string;
  organization_id: string;
  previous_secret: string | null;
  previous_secret_until: Timestamp | null;
  secret: string;
  updated_at: Generated<Timestamp>;
  url: string;
}

export interface WebhookMessages {
  body: string;
  created_at: Generated<Timestamp>;
  event_type: string;
  id: string;
  organization_id: string;
}

export interface DB {
  accounts: Accounts;
  agent_versions: AgentVersions;
  agents: Agents;
  api_key_lookups: ApiKeyLookups;
  api_keys: ApiKeys;
  campaign_engagement: CampaignEngagement;
  campaign_ids: CampaignIds;
  campaigns: Campaigns;
  custom_link_job_items: CustomLinkJobItems;
  custom_link_jobs: CustomLinkJobs;
  custom_link_search: CustomLinkSearch;
  custom_link_slugs: CustomLinkSlugs;
  custom_links: CustomLinks;
  engagement_folds: EngagementFolds;
  event_facet_days: EventFacetDays;
  event_facet_hours: EventFacetHours;
  event_facet_versions: EventFacetVersions;
  export_chunks: ExportChunks;
  exports: Exports;
  idempotency_records: IdempotencyRecords;
  internal_traffic_settings: InternalTrafficSettings;
  link_card_states: LinkCardStates;
  link_distinct_values: LinkDistinctValues;
  link_event_batches: LinkEventBatches;
  link_event_hours: LinkEventHours;
  link_event_ids: LinkEventIds;
  link_events: LinkEvents;
  link_rollups: LinkRollups;
  link_sessions: LinkSessions;
  organizations: Organizations;
  people: People;
  person_accounts: PersonAccounts;
  person_intents: PersonIntents;
  privacy_erasures: PrivacyErasures;
  privacy_suppressions: PrivacySuppressions;
  publish_jobs: PublishJobs;
  retention_settings: RetentionSettings;
  session_count_deltas: SessionCountDeltas;
  session_counts: SessionCounts;
  session_day_counts: SessionDayCounts;
  session_day_totals: SessionDayTotals;
  session_email_gram_samples: SessionEmailGramSamples;
  session_email_gram_shares: SessionEmailGramShares;
  session_emails: SessionEmails;
  session_hour_counts: SessionHourCounts;
  session_hour_totals: SessionHourTotals;
  session_ids: SessionIds;
  session_observations: SessionObservations;
  session_transcripts: SessionTranscripts;
  sessions: Sessions;
  suggestion_groups: SuggestionGroups;
  suppression_salts: SuppressionSalts;
  thumbnail_images: ThumbnailImages;
  thumbnail_renders: ThumbnailRenders;
  transcript_daily_reads: TranscriptDailyReads;
  visible_sessions: VisibleSessions;
  webhook_deliveries: WebhookDeliveries;
  webhook_endpoints: WebhookEndpoints;
  webhook_messages: WebhookMessages;
}
