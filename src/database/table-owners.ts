import type { TableName } from '../common/database/rows';

/** A folder of src/ whose code may name a table in SQL: a domain module, or a cross-cutting piece of common/. */
export type TableOwner =
  | 'organizations'
  | 'api-keys'
  | 'sessions'
  | 'people'
  | 'accounts'
  | 'custom-links'
  | 'campaigns'
  | 'custom-link-jobs'
  | 'engagement'
  | 'thumbnails'
  | 'playbook'
  | 'agent'
  | 'webhooks'
  | 'exports'
  | 'settings'
  | 'privacy'
  | 'suppressions'
  | 'common/idempotency';

/**
 * The owner of every table: the one place that writes it and names it in SQL
 * (src/database/table-ownership.spec.ts). A module that needs another's rows goes through the owner.
 * A table the migrations add needs a line here, or this file fails to compile.
 */
export const TABLE_OWNERS = {
  organizations: 'organizations',
  api_keys: 'api-keys',
  api_key_lookups: 'api-keys',
  idempotency_records: 'common/idempotency',
  sessions: 'sessions',
  session_ids: 'sessions',
  visible_sessions: 'sessions',
  session_transcripts: 'sessions',
  session_emails: 'sessions',
  session_counts: 'sessions',
  session_count_deltas: 'sessions',
  session_day_counts: 'sessions',
  session_hour_counts: 'sessions',
  session_day_totals: 'sessions',
  session_hour_totals: 'sessions',
  session_email_gram_samples: 'sessions',
  session_email_gram_shares: 'sessions',
  transcript_daily_reads: 'sessions',
  people: 'people',
  person_intents: 'people',
  person_accounts: 'people',
  accounts: 'accounts',
  campaigns: 'campaigns',
  campaign_ids: 'campaigns',
  custom_links: 'custom-links',
  custom_link_slugs: 'custom-links',
  link_rollups: 'custom-links',
  link_card_states: 'custom-links',
  custom_link_search: 'custom-links',
  custom_link_jobs: 'custom-link-jobs',
  custom_link_job_items: 'custom-link-jobs',
  thumbnail_renders: 'thumbnails',
  thumbnail_images: 'thumbnails',
  link_events: 'engagement',
  link_event_ids: 'engagement',
  link_event_batches: 'engagement',
  link_event_hours: 'engagement',
  event_facet_hours: 'engagement',
  event_facet_days: 'engagement',
  event_facet_versions: 'engagement',
  engagement_folds: 'engagement',
  link_distinct_values: 'engagement',
  link_sessions: 'engagement',
  campaign_engagement: 'engagement',
  session_observations: 'engagement',
  agents: 'playbook',
  agent_versions: 'playbook',
  suggestion_groups: 'playbook',
  publish_jobs: 'agent',
  webhook_endpoints: 'webhooks',
  webhook_messages: 'webhooks',
  webhook_deliveries: 'webhooks',
  exports: 'exports',
  export_chunks: 'exports',
  internal_traffic_settings: 'settings',
  retention_settings: 'settings',
  privacy_erasures: 'privacy',
  suppression_salts: 'suppressions',
  privacy_suppressions: 'suppressions',
} as const satisfies Record<TableName, TableOwner>;

/**
 * Read models: views an owner declares over its tables (migration ReadModels) for other modules to
 * join in their own SQL, read only. The planner inlines a view, so the reader's one statement plans as
 * the join it replaces, while the owner keeps its tables to itself.
 */
export const READ_MODELS: ReadonlySet<TableName> = new Set<TableName>([
  'person_intents',
  'person_accounts',
  'session_observations',
  'campaign_ids',
  'link_rollups',
  'visible_sessions',
  'link_card_states',
]);
