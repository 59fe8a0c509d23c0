import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { SortKey, type Keyset, type PageWindow } from '../../common/pagination/cursor';
import { COMMIT_WITHOUT_FLUSH } from '../../common/database/commit-without-flush';
import type { Narrowed, Row } from '../../common/database/rows';
import { preparedQuery } from '../../common/database/prepared-query';
import { containsPattern, SqlConditions } from '../../common/database/sql-conditions';
import { phoneDigitsSql, type DataSubject } from '../../common/privacy/data-subject';
import type { AccountLinkFigures } from '../accounts';
import type { CampaignLinkCounts } from '../campaigns';
import {
  LINK_FIGURE_COLUMNS,
  type BotOpens,
  type LinkFigures,
  type LinkFiguresChange,
  type LinkRollupDelta,
} from '../engagement';
import type { CustomLinkListQuery } from './dto/custom-link-list.query';
import type { LinkTextField } from './dto/link-fields.request';
import { MERGE_ROLLUPS, mergeParameters, RESET_ROLLUPS, WITH_ROLLUP } from './link-rollup-merge';
import type { AccessColumns, AccessState } from './rules/link-access';

/** What the public route reads of a link (primary key). */
export type PublicLink = Pick<
  CustomLinkRow,
  'organization_id' | 'id' | 'active' | 'expires_at' | 'max_human_opens' | 'human_opens' | 'expired_redirect_url'
>;

/** A link row; bot opens by reason, a reason never seen absent. */
export type CustomLinkRow = Narrowed<Row<'custom_links'>, { bot_opens: Partial<BotOpens> }>;

/** Column of each personalization field. */
export const FIELD_COLUMNS: Record<LinkTextField, keyof CustomLinkRow> = {
  displayName: 'display_name',
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  phone: 'phone',
  role: 'role',
  company: 'company',
  context: 'context',
  shareTitle: 'share_title',
  shareDescription: 'share_description',
  shareThumbnailUrl: 'share_thumbnail_url',
  prospectLogoUrl: 'prospect_logo_url',
  prospectDomain: 'prospect_domain',
};

export type LinkColumns = Partial<Omit<CustomLinkRow, 'organization_id' | 'id'>>;

/** The columns a link's campaign figures depend on (LinkFiling.figuresChanged), as a write returns them. */
const FIGURES = LINK_FIGURE_COLUMNS.join(', ');

/**
 * The search copy (custom_link_search) of the link a modifying CTE `l` wrote, updated in the same
 * statement when what it copies changed: the list's `q` and `company` filters match it (migration
 * LinkSearchApart). A rollup merge changes none of it and does not join it.
 */
const SEARCH_COPY_UPDATE = `s AS (
  UPDATE custom_link_search s SET search_text = l.search_text, company_key = lower(l.company) FROM l
   WHERE s.organization_id = $1 AND s.custom_link_id = l.id
     AND (s.search_text, s.company_key) IS DISTINCT FROM (l.search_text, lower(l.company)))`;

/** The only place that queries custom_links; every statement but the public lookups (custom_link_slugs) is scoped by organization. */
@Injectable()
export class CustomLinksRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The first `limit` links whose email is this email key, case-insensitively, newest first (custom_links_email_idx). */
  async findByEmailKey(organizationId: string, emailKey: string, limit: number): Promise<CustomLinkRow[]> {
    return this.db.query(
      `SELECT * FROM custom_links WHERE organization_id = $1 AND lower(email) = $2 ORDER BY created_at DESC, id DESC LIMIT $3`,
      [organizationId, emailKey, limit],
    );
  }

  /**
   * Inserts a link unless its id exists (a resumed job item), with its search copy in the same
   * statement: the link's figures when this call created it, null when not. A new link's slug is
   * recorded in custom_link_slugs in the same transaction, which keeps slugs unique across organizations.
   */
  async insertIfAbsent(
    tx: EntityManager,
    organizationId: string,
    id: string,
    columns: LinkColumns,
  ): Promise<LinkFigures | null> {
    const names = Object.keys(columns);
    const rows: (LinkFigures & Pick<CustomLinkRow, 'slug'>)[] = await tx.query(
      `WITH l AS (
         INSERT INTO custom_links (organization_id, id, ${names.join(', ')})
         VALUES ($1, $2, ${names.map((_, i) => `$${i + 3}`).join(', ')})
         ON CONFLICT (organization_id, id) DO NOTHING RETURNING *),
       s AS (
         INSERT INTO custom_link_search (organization_id, custom_link_id, search_text, company_key)
         SELECT l.organization_id, l.id, l.search_text, lower(l.company) FROM l WHERE l.organization_id = $1)
       SELECT slug, ${FIGURES} FROM l`,
      [organizationId, id, ...Object.values(columns)],
    );
    if (rows.length === 0) return null;
    await tx.query(`INSERT INTO custom_link_slugs (slug, custom_link_id, organization_id) VALUES ($1, $2, $3)`, [
      rows[0].slug,
      id,
      organizationId,
    ]);
    const { slug: _slug, ...figures } = rows[0];
    return figures;
  }

  async findById(
    organizationId: string,
    id: string,
    tx: EntityManager | DataSource = this.db,
  ): Promise<CustomLinkRow | null> {
    const rows: CustomLinkRow[] = await tx.query(`SELECT * FROM custom_links WHERE organization_id = $1 AND id = $2`, [
      organizationId,
      id,
    ]);
    return rows[0] ?? null;
  }

  /** The link row locked for the rest of the transaction (concurrent PATCHes of one link serialise). */
  async lock(tx: EntityManager, organizationId: string, id: string): Promise<CustomLinkRow | null> {
    const rows: CustomLinkRow[] = await tx.query(
      `SELECT * FROM custom_links WHERE organization_id = $1 AND id = $2 FOR UPDATE`,
      [organizationId, id],
    );
    return rows[0] ?? null;
  }

  /** Whether the link exists and is active (primary key). */
  async isActive(organizationId: string, id: string): Promise<boolean> {
    const rows: Pick<CustomLinkRow, 'active'>[] = await this.db.query(
      `SELECT active FROM custom_links WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    );
    return rows[0]?.active === true;
  }

  /** Public lookup by slug: its organization from custom_link_slugs (slugs are unguessable and unique across organizations), then the link. */
  async findBySlug(slug: string): Promise<PublicLink | null> {
    const found: Pick<Row<'custom_link_slugs'>, 'organization_id' | 'custom_link_id'>[] = await this.db.query(
      `SELECT organization_id, custom_link_id FROM custom_link_slugs WHERE slug = $1`,
      [slug],
    );
    if (found.length === 0) return null;
    const rows: PublicLink[] = await this.db.query(
      `SELECT organization_id, id, active, expires_at, max_human_opens, human_opens, expired_redirect_url
         FROM custom_links WHERE organization_id = $1 AND id = $2`,
      [found[0].organization_id, found[0].custom_link_id],
    );
    return rows[0] ?? null;
  }

  /**
   * Reserves one human open of a capped link that is still open at `now` (issue 36): one conditional
   * UPDATE, so concurrent opens serialise on the row and at most max_human_opens succeed; the one
   * that reaches the cap marks the link closed at `now`. Null when the cap is reached (or the link
   * closed meanwhile); else the link with this open.
   */
  async reserveHumanOpen(
    tx: EntityManager,
    organizationId: string,
    id: string,
    now: Date,
  ): Promise<CustomLinkRow | null> {
    const [rows]: [CustomLinkRow[], number] = await tx.query(
      `UPDATE custom_links SET human_opens = human_opens + 1,
              access_closed_at = CASE WHEN human_opens + 1 >= max_human_opens THEN $3 ELSE access_closed_at END
        WHERE organization_id = $1 AND id = $2 AND active AND human_opens < max_human_opens
          AND (expires_at IS NULL OR expires_at > $3)
        RETURNING *`,
      [organizationId, id, now],
    );
    return rows[0] ?? null;
  }

  /**
   * Active links, across organizations, that are expired or capped at `now` and not yet seen so
   * (custom_links_access_due_idx): at most `limit`, read without a lock (closeDue claims them).
   */
  async dueForClosing(now: Date, limit: number): Promise<{ organizationId: string; id: string }[]> {
    return this.db.query(
      `SELECT organization_id AS "organizationId", id FROM custom_links
        WHERE access_closed_at IS NULL AND (expires_at IS NOT NULL OR max_human_opens IS NOT NULL) AND active
          AND (expires_at <= $1 OR human_opens >= max_human_opens)
        ORDER BY expires_at LIMIT $2`,
      [now, limit],
    );
  }

  /**
   * Marks the organization's links among `ids` closed at `now` if they still are expired or capped
   * and not yet marked: sweepers running at once each take a link at most once (the row lock of the
   * UPDATE, then its condition again). Returns the links marked.
   */
  async closeDue(tx: EntityManager, organizationId: string, ids: string[], now: Date): Promise<CustomLinkRow[]> {
    const [rows]: [CustomLinkRow[], number] = await tx.query(
      `UPDATE custom_links SET access_closed_at = $3
        WHERE organization_id = $1 AND id = ANY($2::uuid[]) AND access_closed_at IS NULL AND active
          AND (expires_at <= $3 OR human_opens >= max_human_opens)
        RETURNING *`,
      [organizationId, ids, now],
    );
    return rows;
  }

  /**
   * The set_access bulk action on the organization's links among `ids`: the given access columns,
   * and a link that is no longer expired nor capped at `now` forgets it was (access_closed_at), so
   * it is announced again when it closes again. Returns the ids touched.
   */
  async applyAccess(
    tx: EntityManager,
    organizationId: string,
    ids: string[],
    columns: AccessColumns,
    now: Date,
  ): Promise<string[]> {
    const params: unknown[] = [organizationId, ids, now];
    // A given column's new value as a parameter, else the column itself.
    const value = (column: keyof AccessColumns, type: string) =>
      column in columns ? `$${params.push(columns[column])}::${type}` : column;
    const expires = value('expires_at', 'timestamptz');
    const cap = value('max_human_opens', 'integer');
    const redirect = value('expired_redirect_url', 'text');
    const [rows]: [Pick<CustomLinkRow, 'id'>[], number] = await tx.query(
      `UPDATE custom_links SET expires_at = ${expires}, max_human_opens = ${cap}, expired_redirect_url = ${redirect},
              access_closed_at = CASE WHEN (${expires} <= $3 OR human_opens >= ${cap}) THEN access_closed_at END,
              updated_at = now()
        WHERE organization_id = $1 AND id = ANY($2::uuid[]) RETURNING id`,
      params,
    );
    return rows.map((row) => row.id);
  }

  /** The organization of a link known by its id alone (the public card route), from custom_link_slugs. */
  async organizationOf(id: string): Promise<string | null> {
    const rows: Pick<Row<'custom_link_slugs'>, 'organization_id'>[] = await this.db.query(
      `SELECT organization_id FROM custom_link_slugs WHERE custom_link_id = $1`,
      [id],
    );
    return rows[0]?.organization_id ?? null;
  }

  /** The organization's links among these ids, locked in id order for the rest of the transaction. */
  async lockAll(
    tx: EntityManager,
    organizationId: string,
    ids: string[],
  ): Promise<(LinkFigures & Pick<CustomLinkRow, 'account_domain'>)[]> {
    return tx.query(
      `SELECT ${FIGURES}, account_domain FROM custom_links WHERE organization_id = $1 AND id = ANY($2::uuid[])
        ORDER BY id FOR UPDATE`,
      [organizationId, ids],
    );
  }

  /** Unfiles a campaign's links (locked in id order); returns them as they are now. */
  async unfileCampaign(tx: EntityManager, organizationId: string, campaignId: string): Promise<LinkFiguresChange[]> {
    const [rows]: [LinkFigures[], number] = await tx.query(
      `UPDATE custom_links SET campaign_id = NULL
        WHERE organization_id = $1 AND id IN (
          SELECT id FROM custom_links WHERE organization_id = $1 AND campaign_id = $2 ORDER BY id FOR UPDATE)
       RETURNING ${FIGURES}`,
      [organizationId, campaignId],
    );
    return rows.map((after) => ({ before: { ...after, campaign_id: campaignId }, after }));
  }

  /** Writes a locked link's columns, and its search copy in the same statement. */
  async update(tx: EntityManager, organizationId: string, id: string, columns: LinkColumns): Promise<CustomLinkRow> {
    const names = Object.keys(columns);
    const sets = names.map((name, i) => `${name} = $${i + 3}`);
    const rows: CustomLinkRow[] = await tx.query(
      `WITH l AS (
         UPDATE custom_links SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE organization_id = $1 AND id = $2 RETURNING *),
       ${SEARCH_COPY_UPDATE}
       SELECT * FROM l`,
      [organizationId, id, ...Object.values(columns)],
    );
    return rows[0];
  }

  /**
   * The link marked processing if it still waits for the render (thumbnail_render_id); null when not.
   * Commits without waiting for the WAL flush, like the render's own writes: a crash that forgets it
   * leaves the link queued until the render runs again.
   */
  async markRenderProcessing(organizationId: string, id: string, renderId: string): Promise<CustomLinkRow | null> {
    // Every render runs it: prepared once per connection.
    const rows = await preparedQuery<CustomLinkRow>(
      this.db,
      `WITH marked AS (
         UPDATE custom_links SET thumbnail_status = 'processing', updated_at = now()
          WHERE organization_id = $1 AND id = $2 AND thumbnail_render_id = $3 RETURNING *)
       SELECT marked.* FROM marked ${COMMIT_WITHOUT_FLUSH}`,
      [organizationId, id, renderId],
    );
    return rows[0] ?? null;
  }

  /**
   * A render's outcome, if the link still waits for that render: one more attempt, and the new card
   * when the render stored one (a null URL keeps the link's card). Returns the link's attempts with
   * this one, or null when a newer render took over.
   */
  async recordRenderOutcome(
    tx: EntityManager,
    organizationId: string,
    id: string,
    renderId: string,
    outcome: Pick<
      CustomLinkRow,
      'thumbnail_status' | 'share_thumbnail_url' | 'thumbnail_error_code' | 'thumbnail_error_message'
    >,
  ): Promise<number | null> {
    const [rows]: [Pick<CustomLinkRow, 'thumbnail_attempts'>[], number] = await tx.query(
      `UPDATE custom_links SET thumbnail_status = $4, share_thumbnail_url = coalesce($5, share_thumbnail_url), thumbnail_attempts = thumbnail_attempts + 1,
              thumbnail_error_code = $6, thumbnail_error_message = $7, updated_at = now()
        WHERE organization_id = $1 AND id = $2 AND thumbnail_render_id = $3 RETURNING thumbnail_attempts`,
      [
        organizationId,
        id,
        renderId,
        outcome.thumbnail_status,
        outcome.share_thumbnail_url,
        outcome.thumbnail_error_code,
        outcome.thumbnail_error_message,
      ],
    );
    return rows[0]?.thumbnail_attempts ?? null;
  }

  /**
   * One statement for a bulk action, in `tx` (which locked the links); returns the organization's links
   * it touched, as they are now. None of these columns is in the search copy.
   */
  async applyToMany(
    tx: EntityManager,
    organizationId: string,
    ids: string[],
    columns: Partial<Pick<CustomLinkRow, 'active' | 'campaign_id' | 'thumbnail_status'>>,
  ): Promise<LinkFigures[]> {
    const names = Object.keys(columns);
    const [rows]: [LinkFigures[], number] = await tx.query(
      `UPDATE custom_links SET ${[...names.map((name, i) => `${name} = $${i + 3}`), 'updated_at = now()'].join(', ')}
        WHERE organization_id = $1 AND id = ANY($2::uuid[]) RETURNING ${FIGURES}`,
      [organizationId, ids, ...Object.values(columns)],
    );
    return rows;
  }

  /** A page of links: ids from the index that fits the sort (deferred join), then the rows with their keyset. */
  async listPage(
    organizationId: string,
    query: CustomLinkListQuery,
    window: PageWindow,
    now: Date,
  ): Promise<(CustomLinkRow & { keyset: Keyset })[]> {
    const where = this.filters(organizationId, query, now);
    const key = linkSortKey(query);
    const after = window.after === null ? '' : `AND ${key.after(window.after, (value) => where.param(value))}`;
    const limit = where.param(window.limit);
    const offset = where.param(window.skip);
    return this.db.query(
      `WITH page AS (
         SELECT id, created_at, last_activity_at, updated_at FROM custom_links WHERE ${where.toSql()} ${after}
          ORDER BY ${key.orderBy()} LIMIT ${limit} OFFSET ${offset})
       SELECT l.*, ${key.select('l.')} FROM page JOIN custom_links l ON l.organization_id = $1 AND l.id = page.id
        ORDER BY ${key.orderBy('page.')}`,
      where.params,
    );
  }

  async count(organizationId: string, query: CustomLinkListQuery, now: Date): Promise<number> {
    const where = this.filters(organizationId, query, now);
    const [row]: { total: string }[] = await this.db.query(
      `SELECT count(*) AS total FROM custom_links WHERE ${where.toSql()}`,
      where.params,
    );
    return Number(row.total);
  }

  private filters(organizationId: string, query: CustomLinkListQuery, now: Date): SqlConditions {
    const where = new SqlConditions()
      .add('organization_id = $?', organizationId)
      .addIf('campaign_id = $?', query.campaign_id)
      .addIf('active = $?', query.active)
      .addIf('stage = $?', query.stage)
      .addIf('external_id = $?', query.external_id)
      .addIf('lower(email) = lower($?)', query.email)
      .addIf(searched('company_key'), query.company === undefined ? undefined : containsPattern(query.company))
      .addIf('created_at >= $?', query.created_from)
      .addIf('created_at <= $?', query.created_to)
      .addIf('updated_at >= $?', query.updated_since)
      .addIf(searched('search_text'), query.q === undefined ? undefined : containsPattern(query.q));
    if (!query.access_state?.length) return where;
    // Inactive alone takes no time: a parameter no clause names would have no type.
    const states = accessStatesIn(query.access_state);
    return states.includes('$?') ? where.add(states, now) : where.clause(states);
  }

  /** Links filed per campaign, active ones apart (custom_links_campaign_idx). */
  async countsByCampaign(organizationId: string, campaignIds: string[]): Promise<Map<string, CampaignLinkCounts>> {
    if (campaignIds.length === 0) return new Map();
    // Filed links only: campaign_id is not null.
    type Counted = { campaign_id: NonNullable<CustomLinkRow['campaign_id']>; total: string; active: string };
    const rows: Counted[] = await this.db.query(
      `SELECT campaign_id, count(*) AS total, count(*) FILTER (WHERE active) AS active
         FROM custom_links WHERE organization_id = $1 AND campaign_id = ANY($2::uuid[]) GROUP BY campaign_id`,
      [organizationId, campaignIds],
    );
    return new Map(rows.map((row) => [row.campaign_id, { total: Number(row.total), active: Number(row.active) }]));
  }

  /**
   * The figures of the links of each of these account domains (docs/api.md §2.5), counted as campaign
   * engagement counts its links (§6.5), one row per domain with links: custom_links_account_idx.
   */
  async figuresByAccount(organizationId: string, domains: string[]): Promise<Map<string, AccountLinkFigures>> {
    const rows: AccountLinkCounts[] = await this.db.query(
      `SELECT account_domain, count(*)::int AS links, count(*) FILTER (WHERE stage <> 'not_opened')::int AS opened,
              count(*) FILTER (WHERE stage = 'engaged')::int AS engaged,
              count(*) FILTER (WHERE first_lead_submitted_at IS NOT NULL)::int AS lead_submitted,
              count(*) FILTER (WHERE first_meeting_booked_at IS NOT NULL)::int AS meeting_booked,
              sum(persistent_visitor_count + ephemeral_page_view_count) AS unique_visitors, sum(session_count) AS sessions,
              max(last_activity_at) AS last_activity_at
         FROM custom_links WHERE organization_id = $1 AND account_domain = ANY($2::text[]) GROUP BY account_domain`,
      [organizationId, domains],
    );
    return new Map(rows.map((row) => [row.account_domain, accountFiguresOf(row)]));
  }

  /** The organization's links among these ids and slugs. */
  async resolveForEvents(
    organizationId: string,
    ids: string[],
    slugs: string[],
  ): Promise<Pick<CustomLinkRow, 'id' | 'slug'>[]> {
    return this.db.query(
      `SELECT id, slug FROM custom_links WHERE organization_id = $1 AND (id = ANY($2::uuid[]) OR slug = ANY($3::text[]))`,
      [organizationId, ids, slugs],
    );
  }

  /**
   * Empties the organization's link rollups in `tx` (a refold follows): the links with one locked in id
   * order, then emptied; returns them as they were and as they are.
   */
  async resetRollups(tx: EntityManager, organizationId: string): Promise<LinkFiguresChange[]> {
    const before: LinkFigures[] = await tx.query(
      `SELECT ${FIGURES} FROM custom_links WHERE organization_id = $1 AND ${WITH_ROLLUP} ORDER BY id FOR NO KEY UPDATE`,
      [organizationId],
    );
    if (before.length === 0) return [];
    const [after]: [LinkFigures[], number] = await tx.query(RESET_ROLLUPS, [
      organizationId,
      before.map((link) => link.id),
    ]);
    return pairedById(before, after);
  }

  /**
   * Locks the links a merge of event batches writes, in id order (the lock the UPDATE takes: writers
   * of a link wait, foreign-key checks of its cards do not); returns them as they are before it: their
   * figures, bot opens and milestone times.
   */
  async lockForMerge(tx: EntityManager, organizationId: string, ids: string[]): Promise<MergedLink[]> {
    return tx.query(
      `SELECT ${FIGURES}, bot_opens, first_started_at, first_engaged_at FROM custom_links
        WHERE organization_id = $1 AND id = ANY($2::uuid[]) ORDER BY id FOR NO KEY UPDATE`,
      [organizationId, ids],
    );
  }

  /**
   * Merges event batches' statistics into the links (docs/api.md §6.4), `before` as lockForMerge
   * returned them; returns the links the merge changed, as the write left them.
   */
  async mergeRollups(
    tx: EntityManager,
    organizationId: string,
    deltas: LinkRollupDelta[],
    before: MergedLink[],
  ): Promise<LinkFiguresChange[]> {
    // Only the links locked: one created since would be merged without its figures as they were.
    const locked = new Map(before.map((link) => [link.id, link.bot_opens]));
    const [after]: [LinkFigures[], number] = await tx.query(MERGE_ROLLUPS, [
      organizationId,
      ...mergeParameters(
        deltas.filter((d) => locked.has(d.linkId)),
        locked,
      ),
      new Date(),
    ]);
    return pairedById(before, after);
  }

  /** The subject's links (email case-insensitively, phone by digits), locked in id order. */
  async lockOfSubject(tx: EntityManager, organizationId: string, subject: DataSubject): Promise<CustomLinkRow[]> {
    return tx.query(`SELECT * FROM custom_links WHERE organization_id = $1 AND ${SUBJECT} ORDER BY id FOR UPDATE`, [
      organizationId,
      subject.emailKey,
      subject.phoneDigits,
    ]);
  }

  /** The subject's links: ids and the prospect values they hold. */
  async ofSubject(
    organizationId: string,
    subject: DataSubject,
  ): Promise<Pick<CustomLinkRow, 'id' | 'email' | 'first_name' | 'last_name' | 'phone'>[]> {
    return this.db.query(
      `SELECT id, email, first_name, last_name, phone FROM custom_links WHERE organization_id = $1 AND ${SUBJECT}`,
      [organizationId, subject.emailKey, subject.phoneDigits],
    );
  }

  /** The links among `ids`, read in `tx`. */
  async findByIds(tx: EntityManager, organizationId: string, ids: string[]): Promise<CustomLinkRow[]> {
    return tx.query(`SELECT * FROM custom_links WHERE organization_id = $1 AND id = ANY($2::uuid[])`, [
      organizationId,
      ids,
    ]);
  }
}

/** A link as a rollup merge finds it locked: what its campaign's figures, its bot opens and its milestones take from it. */
export type MergedLink = LinkFigures &
  Pick<
    CustomLinkRow,
    'bot_opens' | 'first_started_at' | 'first_engaged_at' | 'first_lead_submitted_at' | 'first_meeting_booked_at'
  >;

/** Each written link as it was (`before`, locked) and as the write returned it. */
function pairedById(before: LinkFigures[], after: LinkFigures[]): LinkFiguresChange[] {
  const was = new Map(before.map((link) => [link.id, link]));
  return after.map((link) => ({ before: was.get(link.id) ?? null, after: link }));
}

/** One account domain's links counted (figuresByAccount); sums of integers come back as int8 text. */
type AccountLinkCounts = Record<'links' | 'opened' | 'engaged' | 'lead_submitted' | 'meeting_booked', number> &
  Record<'unique_visitors' | 'sessions', string> &
  Pick<CustomLinkRow, 'last_activity_at'> & { account_domain: string };

function accountFiguresOf(row: AccountLinkCounts): AccountLinkFigures {
  return {
    links: row.links,
    opened: row.opened,
    engaged: row.engaged,
    leadSubmitted: row.lead_submitted,
    meetingBooked: row.meeting_booked,
    uniqueVisitors: Number(row.unique_visitors),
    sessions: Number(row.sessions),
    lastActivityAt: row.last_activity_at,
  };
}

/** Columns over the links created in a window, optionally of one campaign (windowParameters: null bounds are open). */
const linkKey = (column: string, descending: boolean, nullsLast = false) =>
  new SortKey([
    { sql: column, type: 'timestamptz', descending, nullsLast },
    { sql: 'id', type: 'uuid', descending },
  ]);

/**
 * The list's order: (updated_at, id) ascending for a sync (custom_links_updated_idx); otherwise the
 * chosen sort, links without activity last in either direction (docs/api.md §11.4).
 */
function linkSortKey(query: CustomLinkListQuery): SortKey {
  if (query.updated_since !== undefined) return linkKey('updated_at', false);
  const descending = query.order !== 'asc';
  return query.sort === 'last_activity_at'
    ? linkKey('last_activity_at', descending, true)
    : linkKey('created_at', descending);
}

/** A condition on the listed link: its custom_link_search `column` matches a LIKE pattern (the trigram indexes there). */
const searched = (column: 'search_text' | 'company_key') =>
  `(organization_id, id) IN (SELECT s.organization_id, s.custom_link_id FROM custom_link_search s WHERE s.${column} LIKE $? ESCAPE '\\')`;

/**
 * Links in any of these access states at the time `$?` (rules/link-access.ts; the link's row alone).
 * Expired reads custom_links_expiry_idx (a range on the bound time, never now()), capped
 * custom_links_capped_idx; open is most links and inactive is `active`.
 */
function accessStatesIn(states: AccessState[]): string {
  const notExpired = '(expires_at IS NULL OR expires_at > $?)';
  const conditions: Record<AccessState, string> = {
    inactive: 'NOT active',
    expired: 'active AND expires_at <= $?',
    capped: `active AND ${notExpired} AND max_human_opens IS NOT NULL AND human_opens >= max_human_opens`,
    open: `active AND ${notExpired} AND (max_human_opens IS NULL OR human_opens < max_human_opens)`,
  };
  return `(${[...new Set(states)].map((state) => `(${conditions[state]})`).join(' OR ')})`;
}

/**
 * A subject's links by $2 (email key: custom_links_email_idx) or $3 (phone digits:
 * custom_links_phone_digits_idx); a null one matches nothing.
 */
const SUBJECT = `((lower(email) = $2::text) OR (phone IS NOT NULL AND ${phoneDigitsSql('phone')} = $3::text))`;
