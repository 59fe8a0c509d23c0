/**
 * Whether a link still leads to its experience (issue 36, docs/api.md §6.1): `inactive` when switched
 * off, `expired` past its expiresAt, `capped` once its human opens reached maxHumanOpens; the first
 * that applies wins, in that order. Clearing the field that caused a state reopens the link.
 */
export const ACCESS_STATES = ['open', 'expired', 'capped', 'inactive'] as const;
export type AccessState = (typeof ACCESS_STATES)[number];

export interface LinkAccess {
  active: boolean;
  expires_at: Date | null;
  max_human_opens: number | null;
  human_opens: number;
}

export const isExpired = (link: Pick<LinkAccess, 'expires_at'>, now: Date): boolean =>
  link.expires_at !== null && link.expires_at.getTime() <= now.getTime();

export const isCapped = (link: Pick<LinkAccess, 'max_human_opens' | 'human_opens'>): boolean =>
  link.max_human_opens !== null && link.human_opens >= link.max_human_opens;

export function accessStateOf(link: LinkAccess, now: Date): AccessState {
  if (!link.active) return 'inactive';
  if (isExpired(link, now)) return 'expired';
  if (isCapped(link)) return 'capped';
  return 'open';
}

/** The access fields as their columns; absent fields stay absent, null clears. */
export interface AccessColumns {
  expires_at?: Date | null;
  max_human_opens?: number | null;
  expired_redirect_url?: string | null;
}

/** The access fields as given (creation items come back from the job's JSON: expiresAt as text). */
export interface AccessFields {
  expiresAt?: Date | string | null;
  maxHumanOpens?: number | null;
  expiredRedirectUrl?: string | null;
}

export function accessColumnsOf(input: AccessFields): AccessColumns {
  const columns: AccessColumns = {};
  if (input.expiresAt !== undefined) columns.expires_at = input.expiresAt === null ? null : new Date(input.expiresAt);
  if (input.maxHumanOpens !== undefined) columns.max_human_opens = input.maxHumanOpens;
  if (input.expiredRedirectUrl !== undefined) columns.expired_redirect_url = input.expiredRedirectUrl;
  return columns;
}

/** The columns among `columns` whose value differs from the link's. */
export function changedAccess(columns: AccessColumns, link: Required<AccessColumns>): AccessColumns {
  const changed: AccessColumns = {};
  if (columns.expires_at !== undefined && columns.expires_at?.getTime() !== link.expires_at?.getTime())
    changed.expires_at = columns.expires_at;
  if (columns.max_human_opens !== undefined && columns.max_human_opens !== link.max_human_opens)
    changed.max_human_opens = columns.max_human_opens;
  if (columns.expired_redirect_url !== undefined && columns.expired_redirect_url !== link.expired_redirect_url)
    changed.expired_redirect_url = columns.expired_redirect_url;
  return changed;
}
