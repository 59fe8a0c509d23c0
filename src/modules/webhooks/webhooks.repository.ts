import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import type { Narrowed, Row } from '../../common/database/rows';
import { SortKey, type Keyset, type PageWindow } from '../../common/pagination/cursor';
import type { LeaseTerms } from '../../common/queue/job-leases';
import { claimPerOrganization, type LapsedJob } from '../../common/queue/job-reaper';
import type { EndpointFilter } from './rules/endpoint-filter';

type Db = EntityManager | DataSource;

export type EndpointRow = Row<'webhook_endpoints'>;

/** A delivery with its message's event type (DELIVERY_COLUMNS). */
export type DeliveryRow = Narrowed<
  Pick<
    Row<'webhook_deliveries'>,
    | 'id'
    | 'endpoint_id'
    | 'message_id'
    | 'attempt'
    | 'status'
    | 'response_status'
    | 'duration_ms'
    | 'error'
    | 'created_at'
    | 'next_attempt_at'
  > &
    Pick<Row<'webhook_messages'>, 'event_type'>,
  { status: 'pending' | 'succeeded' | 'failed' }
>;

/** A pending delivery with what sending it takes: the message and its endpoint. */
export interface SendableDelivery {
  delivery: DeliveryRow;
  body: string;
  endpoint: EndpointRow;
}

export interface EndpointChanges {
  url?: string;
  eventTypes?: string[];
  description?: string | null;
  active?: boolean;
  /** Replaces the filter; null removes it. */
  filter?: EndpointFilter | null;
}

/** The link a `custom_link.*` message is about, and the campaign it is filed in when the message is recorded. */
export interface MessageLink {
  id: string;
  campaignId: string | null;
}

/** A message to record: `link` set for the link events an endpoint's filter applies to, else null. */
export interface RecordedMessage {
  eventType: string;
  body: string;
  linkScoped: boolean;
  link: MessageLink | null;
}

/** What an attempt came to, as the worker records it. */
export interface AttemptOutcome {
  succeeded: boolean;
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  /** When the next attempt is due; null: none follows. */
  nextAttemptAt: Date | null;
  /** Switch the endpoint off (it failed every attempt for five days). */
  deactivate: boolean;
}

const DELIVERY_COLUMNS = `d.id, d.endpoint_id, d.message_id, m.event_type, d.attempt, d.status, d.response_status, d.duration_ms, d.error, d.created_at, d.next_attempt_at`;

/** Pending and due, and nobody sends it: never leased, or its lease lapsed (webhook_deliveries_due_idx). */
const DUE = `status = 'pending' AND next_attempt_at <= now() AND coalesce(lease_until, '-infinity') < now()`;

/** The only place that queries webhook endpoints, messages and deliveries; every statement is scoped by organization. */
@Injectable()
export class WebhooksRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async countEndpoints(tx: Db, organizationId: string): Promise<number> {
    const [row]: { count: string }[] = await tx.query(
      `SELECT count(*) AS count FROM webhook_endpoints WHERE organization_id = $1`,
      [organizationId],
    );
    return Number(row.count);
  }

  async insertEndpoint(
    tx: Db,
    organizationId: string,
    endpoint: {
      url: string;
      eventTypes: string[];
      description: string | null;
      secret: string;
      filter: EndpointFilter | null;
    },
  ): Promise<EndpointRow> {
    const [row]: EndpointRow[] = await tx.query(
      `INSERT INTO webhook_endpoints (organization_id, id, url, event_types, description, secret, filter_campaign_ids, filter_link_ids)
       VALUES ($1, $2, $3, $4, $5, $6, $7::uuid[], $8::uuid[]) RETURNING *`,
      [
        organizationId,
        uuidv7(),
        endpoint.url,
        endpoint.eventTypes,
        endpoint.description,
        endpoint.secret,
        endpoint.filter?.campaignIds ?? null,
        endpoint.filter?.linkIds ?? null,
      ],
    );
    return row;
  }

  /** Newest first (webhook_endpoints_list_idx). */
  async listEndpoints(
    organizationId: string,
    window: PageWindow,
  ): Promise<{ rows: (EndpointRow & { keyset: Keyset })[]; total: number }> {
    const params: unknown[] = [organizationId, window.limit, window.skip];
    const after =
      window.after === null ? '' : `AND ${NEWEST_FIRST.after(window.after, (value) => `$${params.push(value)}`)}`;
    const rows: (EndpointRow & { keyset: Keyset })[] = await this.db.query(
      `SELECT *, ${NEWEST_FIRST.select()} FROM webhook_endpoints WHERE organization_id = $1 ${after} ORDER BY ${NEWEST_FIRST.orderBy()} LIMIT $2 OFFSET $3`,
      params,
    );
    return { rows, total: await this.countEndpoints(this.db, organizationId) };
  }

  async endpoint(organizationId: string, id: string, tx: Db = this.db): Promise<EndpointRow | null> {
    const rows: EndpointRow[] = await tx.query(
      `SELECT * FROM webhook_endpoints WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    );
    return rows[0] ?? null;
  }

  /** Applies the given fields; null when the endpoint is not in the organization. Reactivating clears its failure streak. */
  async updateEndpoint(
    tx: Db,
    organizationId: string,
    id: string,
    changes: EndpointChanges,
  ): Promise<EndpointRow | null> {
    const [rows]: [EndpointRow[], number] = await tx.query(
      `UPDATE webhook_endpoints SET
              url = coalesce($3::text, url),
              event_types = coalesce($4::text[], event_types),
              description = CASE WHEN $5::boolean THEN $6::text ELSE description END,
              active = coalesce($7::boolean, active),
              failing_since = CASE WHEN $7::boolean THEN NULL ELSE failing_since END,
              filter_campaign_ids = CASE WHEN $8::boolean THEN $9::uuid[] ELSE filter_campaign_ids END,
              filter_link_ids = CASE WHEN $8::boolean THEN $10::uuid[] ELSE filter_link_ids END,
              updated_at = now()
        WHERE organization_id = $1 AND id = $2 RETURNING *`,
      [
        organizationId,
        id,
        changes.url ?? null,
        changes.eventTypes ?? null,
        changes.description !== undefined,
        changes.description ?? null,
        changes.active ?? null,
        changes.filter !== undefined,
        changes.filter?.campaignIds ?? null,
        changes.filter?.linkIds ?? null,
      ],
    );
    return rows[0] ?? null;
  }

  async deleteEndpoint(tx: Db, organizationId: string, id: string): Promise<boolean> {
    const [, count]: [unknown[], number] = await tx.query(
      `DELETE FROM webhook_endpoints WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    );
    return count > 0;
  }

  /** The new secret signs from now on; the replaced one keeps signing beside it for `overlapMs`. */
  async rotateSecret(
    tx: Db,
    organizationId: string,
    id: string,
    secret: string,
    overlapMs: number,
  ): Promise<EndpointRow | null> {
    const [rows]: [EndpointRow[], number] = await tx.query(
      `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = now() + $4 * interval '1 millisecond', secret = $3, updated_at = now()
        WHERE organization_id = $1 AND id = $2 RETURNING *`,
      [organizationId, id, secret, overlapMs],
    );
    return rows[0] ?? null;
  }

  /**
   * The outbox write, in the caller's transaction, one statement however many messages (a batch of
   * events can cause hundreds): a first, due attempt for every active endpoint of the organization
   * subscribed to each message's type and, for a link event, whose filter (if any) names the link or
   * its campaign; and the messages, in order, that have such an endpoint (a message nobody receives
   * is not stored). A filter is matched through hashed subplans over the filtered endpoints' ids
   * (built only when a link event needs them), not `= ANY (array)` per message and endpoint: at the
   * bounds (1,000 messages, 20 endpoints of 2,000 ids) that took about 1 s, this about 0.1 s.
   */
  async recordMessages(tx: EntityManager, organizationId: string, messages: RecordedMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await tx.query(
      `WITH m AS (
         SELECT * FROM unnest($2::uuid[], $3::text[], $4::text[], $5::boolean[], $6::uuid[], $7::uuid[])
                  WITH ORDINALITY AS m(id, event_type, body, link_scoped, link_id, campaign_id, ord)
       ), recipients AS (
         SELECT m.id AS message_id, m.ord, e.id AS endpoint_id
           FROM m JOIN webhook_endpoints e ON e.organization_id = $1 AND e.active AND m.event_type = ANY (e.event_types)
          WHERE NOT m.link_scoped OR e.filter_link_ids IS NULL
             OR (e.id, m.link_id) IN (SELECT f.id, t.id FROM webhook_endpoints f CROSS JOIN LATERAL unnest(f.filter_link_ids) AS t(id) WHERE f.organization_id = $1)
             OR (e.id, m.campaign_id) IN (SELECT f.id, t.id FROM webhook_endpoints f CROSS JOIN LATERAL unnest(f.filter_campaign_ids) AS t(id) WHERE f.organization_id = $1)
       ), stored AS (
         INSERT INTO webhook_messages (organization_id, id, event_type, body)
         SELECT $1, m.id, m.event_type, m.body FROM m WHERE m.id IN (SELECT message_id FROM recipients) ORDER BY m.ord
       )
       INSERT INTO webhook_deliveries (organization_id, id, endpoint_id, message_id, attempt, status, next_attempt_at)
       SELECT $1, gen_random_uuid(), r.endpoint_id, r.message_id, 1, 'pending', now() FROM recipients r ORDER BY r.ord, r.endpoint_id`,
      [
        organizationId,
        messages.map(() => uuidv7()),
        messages.map((m) => m.eventType),
        messages.map((m) => m.body),
        messages.map((m) => m.linkScoped),
        messages.map((m) => m.link?.id ?? null),
        messages.map((m) => m.link?.campaignId ?? null),
      ],
    );
  }

  /** Which of `eventTypes` some active endpoint of the organization is subscribed to. */
  async subscribedTypes(tx: Db, organizationId: string, eventTypes: readonly string[]): Promise<Set<string>> {
    const rows: { type: EndpointRow['event_types'][number] }[] = await tx.query(
      `SELECT DISTINCT t.type FROM webhook_endpoints e CROSS JOIN LATERAL unnest(e.event_types) AS t(type)
        WHERE e.organization_id = $1 AND e.active AND t.type = ANY($2::text[])`,
      [organizationId, eventTypes],
    );
    return new Set(rows.map((row) => row.type));
  }

  /** Active endpoints subscribed to a type exist (a producer skips building a payload nobody receives). */
  async anySubscribed(tx: Db, organizationId: string, eventType: string): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      `SELECT 1 FROM webhook_endpoints WHERE organization_id = $1 AND active AND $2 = ANY (event_types) LIMIT 1`,
      [organizationId, eventType],
    );
    return rows.length > 0;
  }

  /** Newest first (webhook_deliveries_list_idx). */
  async listDeliveries(
    organizationId: string,
    endpointId: string,
    statuses: string[] | null,
    window: PageWindow,
  ): Promise<{ rows: (DeliveryRow & { keyset: Keyset })[]; total: number }> {
    const where = `d.organization_id = $1 AND d.endpoint_id = $2 AND ($3::text[] IS NULL OR d.status = ANY ($3))`;
    const params: unknown[] = [organizationId, endpointId, statuses, window.limit, window.skip];
    const after =
      window.after === null
        ? ''
        : `AND ${DELIVERIES_NEWEST_FIRST.after(window.after, (value) => `$${params.push(value)}`)}`;
    const rows: (DeliveryRow & { keyset: Keyset })[] = await this.db.query(
      `SELECT ${DELIVERY_COLUMNS}, ${DELIVERIES_NEWEST_FIRST.select()} FROM webhook_deliveries d JOIN webhook_messages m ON m.organization_id = d.organization_id AND m.id = d.message_id
        WHERE ${where} ${after} ORDER BY ${DELIVERIES_NEWEST_FIRST.orderBy()} LIMIT $4 OFFSET $5`,
      params,
    );
    const [count]: { count: string }[] = await this.db.query(
      `SELECT count(*) AS count FROM webhook_deliveries d WHERE ${where}`,
      [organizationId, endpointId, statuses],
    );
    return { rows, total: Number(count.count) };
  }

  async delivery(
    organizationId: string,
    endpointId: string,
    id: string,
    tx: Db = this.db,
  ): Promise<DeliveryRow | null> {
    const rows: DeliveryRow[] = await tx.query(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN webhook_messages m ON m.organization_id = d.organization_id AND m.id = d.message_id
        WHERE d.organization_id = $1 AND d.endpoint_id = $2 AND d.id = $3`,
      [organizationId, endpointId, id],
    );
    return rows[0] ?? null;
  }

  /**
   * A new attempt of a delivery's message, due now and leased to whoever queues it (the reaper queues
   * it if that fails). Its number is read first, then inserted as a value: Citus refuses parameters in
   * the select list of an INSERT … SELECT from a distributed table.
   */
  async insertManualAttempt(tx: Db, organizationId: string, of: DeliveryRow, lease: LeaseTerms): Promise<DeliveryRow> {
    const id = uuidv7();
    const [{ attempt }]: { attempt: number }[] = await tx.query(
      `SELECT coalesce(max(attempt), 0) + 1 AS attempt FROM webhook_deliveries
        WHERE organization_id = $1 AND endpoint_id = $2 AND message_id = $3`,
      [organizationId, of.endpoint_id, of.message_id],
    );
    await tx.query(
      `INSERT INTO webhook_deliveries (organization_id, id, endpoint_id, message_id, attempt, status, next_attempt_at, lease_until)
       VALUES ($1, $2, $3, $4, $5, 'pending', now(), now() + $6 * interval '1 millisecond')`,
      [organizationId, id, of.endpoint_id, of.message_id, attempt, lease.leaseMs],
    );
    return (await this.delivery(organizationId, of.endpoint_id, id, tx)) as DeliveryRow;
  }

  /**
   * Due pending deliveries that nobody sends (new, retries that came due, or leased by a worker that
   * died), across organizations, claimed per organization (claimPerOrganization); their lease is
   * pushed one term forward, so concurrent sweeps never take a row twice in a term.
   */
  async claimDue(lease: LeaseTerms, limit: number): Promise<LapsedJob[]> {
    const candidates: LapsedJob[] = await this.db.query(
      `SELECT organization_id AS "organizationId", id FROM webhook_deliveries WHERE ${DUE} ORDER BY next_attempt_at LIMIT $1`,
      [limit],
    );
    return claimPerOrganization(candidates, async (organizationId, ids) => {
      const [rows]: [LapsedJob[], number] = await this.db.query(
        `UPDATE webhook_deliveries d SET lease_owner = NULL, lease_until = now() + $1 * interval '1 millisecond'
           FROM (SELECT id FROM webhook_deliveries WHERE organization_id = $2 AND id = ANY($3) AND ${DUE} FOR UPDATE SKIP LOCKED) due
          WHERE d.organization_id = $2 AND d.id = due.id
          RETURNING d.organization_id AS "organizationId", d.id`,
        [lease.leaseMs, organizationId, ids],
      );
      return rows;
    });
  }

  /** Leases a pending delivery to this worker and reads what sending it takes; null once it is no longer pending. */
  async leaseForSending(organizationId: string, id: string, lease: LeaseTerms): Promise<SendableDelivery | null> {
    const [leased]: [Pick<Row<'webhook_deliveries'>, 'endpoint_id' | 'message_id'>[], number] = await this.db.query(
      `UPDATE webhook_deliveries SET lease_owner = $3, lease_until = now() + $4 * interval '1 millisecond'
        WHERE organization_id = $1 AND id = $2 AND status = 'pending' RETURNING endpoint_id, message_id`,
      [organizationId, id, lease.owner, lease.leaseMs],
    );
    if (leased.length === 0) return null;
    const [delivery, endpoint] = await Promise.all([
      this.delivery(organizationId, leased[0].endpoint_id, id),
      this.endpoint(organizationId, leased[0].endpoint_id),
    ]);
    const [message]: Pick<Row<'webhook_messages'>, 'body'>[] = await this.db.query(
      `SELECT body FROM webhook_messages WHERE organization_id = $1 AND id = $2`,
      [organizationId, leased[0].message_id],
    );
    if (!delivery || !endpoint || !message) return null;
    return { delivery, body: message.body, endpoint };
  }

  /**
   * Records an attempt (once: only while it is pending), queues the next one, and moves the endpoint's
   * failure streak. False when the attempt was recorded already (nothing changed). The time is bound
   * (the transaction's start, as now() was): Citus refuses now() inside CASE or COALESCE.
   */
  async recordAttempt(organizationId: string, delivery: DeliveryRow, outcome: AttemptOutcome): Promise<boolean> {
    const at = new Date();
    return this.db.transaction(async (tx) => {
      const [, updated]: [unknown[], number] = await tx.query(
        `UPDATE webhook_deliveries SET status = $3::text, response_status = $4, duration_ms = $5, error = $6, next_attempt_at = $7, lease_owner = NULL, lease_until = NULL
          WHERE organization_id = $1 AND id = $2 AND status = 'pending'`,
        [
          organizationId,
          delivery.id,
          outcome.succeeded ? 'succeeded' : 'failed',
          outcome.responseStatus,
          outcome.durationMs,
          outcome.error,
          outcome.nextAttemptAt,
        ],
      );
      if (updated === 0) return false;
      if (outcome.nextAttemptAt) {
        await tx.query(
          `INSERT INTO webhook_deliveries (organization_id, id, endpoint_id, message_id, attempt, status, next_attempt_at) VALUES ($1, $2, $3, $4, $5, 'pending', $6)`,
          [
            organizationId,
            uuidv7(),
            delivery.endpoint_id,
            delivery.message_id,
            delivery.attempt + 1,
            outcome.nextAttemptAt,
          ],
        );
      }
      await tx.query(
        `UPDATE webhook_endpoints SET failing_since = CASE WHEN $3::boolean THEN NULL ELSE coalesce(failing_since, $5::timestamptz) END,
                active = active AND NOT $4::boolean, updated_at = CASE WHEN $4::boolean AND active THEN $5 ELSE updated_at END
          WHERE organization_id = $1 AND id = $2`,
        [organizationId, delivery.endpoint_id, outcome.succeeded, outcome.deactivate, at],
      );
      return true;
    });
  }

  /**
   * Deletes at most `limit` messages recorded before `cutoff` that no delivery still waits to send
   * (webhook_messages_created_idx), with their deliveries; across organizations. Resolves how many.
   */
  async deleteMessagesBefore(cutoff: Date, limit: number): Promise<number> {
    const [, count]: [unknown[], number] = await this.db.query(
      `DELETE FROM webhook_messages m USING (
         SELECT organization_id, id FROM webhook_messages o
          WHERE created_at < $1 AND NOT EXISTS (
            SELECT 1 FROM webhook_deliveries d
             WHERE d.organization_id = o.organization_id AND d.message_id = o.id AND d.status = 'pending')
          LIMIT $2) old
        WHERE m.organization_id = old.organization_id AND m.id = old.id`,
      [cutoff.toISOString(), limit],
    );
    return count;
  }

  /**
   * Deletes the organization's messages whose body contains any of `patterns` (LIKE patterns on the
   * lower-cased body), with their deliveries (foreign key); returns how many deliveries went.
   */
  async deleteMessagesMatching(organizationId: string, patterns: string[]): Promise<number> {
    if (patterns.length === 0) return 0;
    const rows: { deliveries: string }[] = await this.db.query(
      `WITH gone AS (
         DELETE FROM webhook_messages WHERE organization_id = $1 AND lower(body) LIKE ANY($2::text[]) RETURNING id)
       SELECT count(d.id)::text AS deliveries FROM gone g
         JOIN webhook_deliveries d ON d.organization_id = $1 AND d.message_id = g.id`,
      [organizationId, patterns],
    );
    return Number(rows[0].deliveries);
  }
}

const NEWEST_FIRST = new SortKey([
  { sql: 'created_at', type: 'timestamptz', descending: true },
  { sql: 'id', type: 'uuid', descending: true },
]);
const DELIVERIES_NEWEST_FIRST = new SortKey([
  { sql: 'd.created_at', type: 'timestamptz', descending: true },
  { sql: 'd.id', type: 'uuid', descending: true },
]);
