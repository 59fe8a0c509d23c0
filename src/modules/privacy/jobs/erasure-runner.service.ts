import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { containsPattern } from '../../../common/database/sql-conditions';
import { IdempotencyRepository } from '../../../common/idempotency/idempotency.repository';
import { emailKeyOf, phoneDigitsOf, type DataSubject } from '../../../common/privacy/data-subject';
import { JobLeases } from '../../../common/queue/job-leases';
import { LinkErasure } from '../../custom-links';
import { EventRetention } from '../../engagement';
import { ExportErasure } from '../../exports';
import { PeopleService } from '../../people';
import { SessionErasure } from '../../sessions';
import { SuppressionList } from '../../suppressions';
import { WebhookErasure, WebhookOutbox } from '../../webhooks';
import { PrivacyRepository, type ErasureRow } from '../privacy.repository';
import type { ErasureCountsOf } from '../rules/erasure-counts';

/** Runs of one erasure before it fails (each killed or failed run is one). */
const MAX_ATTEMPTS = 5;
const GAVE_UP = 'The erasure failed repeatedly; request it again.';

/** Who a run erases: the subject as every module matches it, the person it found, the email it suppresses. */
interface ResolvedSubject {
  subject: DataSubject;
  personId: string | null;
  email: string | null;
  phone: string | null;
}

/**
 * Runs erasures on the workers (docs/api.md §18.2). The subject is found first through what still
 * names them (their email or phone on sessions and links), and each step erases one kind, in an
 * order that keeps those traces until the last steps need them: events, webhook messages and stored
 * answers (matched by ids and contacts) before the links and sessions that hold the ids. Every step
 * erases what is still there, so a run killed anywhere is finished by the next one (the reaper
 * queues it again once its lease lapsed); the completion, with the suppression and the
 * `person.erased` message, is one transaction. Nothing about the person is logged.
 */
@Injectable()
export class ErasureRunner {
  private readonly logger = new Logger('ErasureRunner');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly erasures: PrivacyRepository,
    private readonly leases: JobLeases,
    private readonly people: PeopleService,
    private readonly sessions: SessionErasure,
    private readonly links: LinkErasure,
    private readonly events: EventRetention,
    private readonly webhooks: WebhookErasure,
    private readonly idempotency: IdempotencyRepository,
    private readonly exports: ExportErasure,
    private readonly suppressions: SuppressionList,
    private readonly outbox: WebhookOutbox,
  ) {}

  async run(organizationId: string, erasureId: string): Promise<void> {
    const row = await this.erasures.start(organizationId, erasureId, this.leases.terms());
    if (!row) return;
    if (row.attempts > MAX_ATTEMPTS) {
      await this.erasures.fail(organizationId, erasureId, GAVE_UP);
      this.logger.warn({ erasureId }, 'Erasure failed after repeated attempts');
      return;
    }
    await this.leases.hold(
      (lease) => this.erasures.renewLease(organizationId, erasureId, lease),
      () => this.erase(organizationId, row),
    );
  }

  private async erase(organizationId: string, row: ErasureRow): Promise<void> {
    const { subject, personId, email, phone } = await this.resolve(organizationId, row);
    const [sessions, links] = await Promise.all([
      this.sessions.traces(organizationId, subject),
      this.links.traces(organizationId, subject),
    ]);
    // What only this person's records hold: their ids and contacts (names are shared by others).
    const needles = [
      ...new Set(
        [personId, email, phone, ...sessions.ids, ...links.ids, ...sessions.contacts, ...links.contacts].filter(
          (needle): needle is string => !!needle,
        ),
      ),
    ];
    const patterns = needles.map(containsPattern);
    const step = (counts: Partial<ErasureCountsOf>) => this.erasures.addCounts(organizationId, row.id, counts);

    await step({ events: await this.events.forgetVisitors(organizationId, links.ids, sessions.ids) });
    await step({ webhookDeliveries: await this.webhooks.deleteMatching(organizationId, patterns) });
    await step({ idempotencyRecords: await this.idempotency.deleteMatching(organizationId, patterns) });
    await step({ customLinks: await this.links.erase(organizationId, subject, sessions.names) });
    const deleted = await this.sessions.erase(organizationId, subject);
    await step({ sessions: deleted.sessions, transcripts: deleted.transcripts, people: deleted.people });
    await step({ exports: await this.exports.deleteContaining(organizationId, needles) });

    const completed = await this.db.transaction(async (tx) => {
      const done = await this.erasures.complete(tx, organizationId, row.id);
      if (!done) return null;
      if (done.suppress && email) await this.suppressions.suppress(tx, organizationId, email);
      await this.outbox.record(tx, organizationId, 'person.erased', {
        erasureId: done.id,
        personId,
        counts: done.counts,
      });
      return done;
    });
    if (completed) this.logger.log({ erasureId: row.id, counts: completed.counts }, 'Erasure completed');
  }

  /** The subject, resolved once per erasure (a person id to their email) and stored for the runs after. */
  private async resolve(organizationId: string, row: ErasureRow): Promise<ResolvedSubject> {
    let email = row.subject_email;
    let personId = row.person_id;
    if (!row.subject_resolved) {
      const person = row.subject_person_id
        ? await this.people.subjectOf(organizationId, { id: row.subject_person_id })
        : email
          ? await this.people.subjectOf(organizationId, { emailKey: emailKeyOf(email) })
          : null;
      email = row.subject_person_id ? (person?.emailKey ?? null) : email;
      personId = person?.id ?? null;
      await this.erasures.resolve(organizationId, row.id, email, personId);
    }
    const phone = row.subject_phone;
    return {
      subject: { emailKey: email ? emailKeyOf(email) : null, phoneDigits: phone ? phoneDigitsOf(phone) : null },
      personId,
      email,
      phone,
    };
  }
}
