/** The scopes of docs/api.md §5.3, ingestion's `sessions:write` and `events:write` included. */
export const SCOPES = [
  'sessions:read',
  'sessions:write',
  'people:read',
  'accounts:read',
  'analytics:read',
  'transcripts:read',
  'custom_links:read',
  'custom_links:write',
  'playbook:read',
  'playbook:write',
  'agent:publish',
  'events:write',
  'webhooks:read',
  'webhooks:write',
  'settings:read',
  'settings:write',
  'privacy:read',
  'privacy:write',
] as const;

export type Scope = (typeof SCOPES)[number];

/** Scopes a key holds only when they are asked for by name: never part of a key made with every scope (the demo key). */
export const OPT_IN_SCOPES: readonly Scope[] = ['settings:read', 'settings:write', 'privacy:read', 'privacy:write'];

/** Scopes that also grant another (docs/api.md §5.4: custom_links:write satisfies Custom Link reads). */
const IMPLIED: Partial<Record<Scope, Scope[]>> = {
  'custom_links:write': ['custom_links:read'],
};

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** True when the granted scopes satisfy any one of the accepted scopes. */
export function grantsAny(granted: readonly Scope[], accepted: readonly Scope[]): boolean {
  return accepted.some((scope) => granted.includes(scope) || granted.some((g) => IMPLIED[g]?.includes(scope)));
}
