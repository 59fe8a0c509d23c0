import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ConflictError } from '../../common/errors/domain-errors';
import { observeIngestionLag } from '../../common/metrics/app-metrics';
import { IdempotencyRecorder } from '../../common/idempotency/idempotency-recorder';
import { CountCache } from '../../common/pagination/count-cache';
import { lockNames } from '../../common/database/advisory-locks';
import { PEOPLE_LIST, PeopleRollupsService } from '../people';
import { SuppressionList } from '../suppressions';
import { WebhookOutbox } from '../webhooks';
import type { IngestSessionRequest, IngestSessionResponse } from './dto/ingest-session.request';
import { isVisible, toSessionIngestion } from './rules/session-record';
import { SESSION_LIST } from './session-list';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';

/**
 * Session ingestion (docs/api.md §13.1): one transaction upserts the session and its transcript and
 * rolls up the people and accounts it touches (before and after the change), so reads never see
 * a session without its rollups. The same body twice writes nothing. A suppressed email (§18.3) is
 * refused before anything is written.
 */
@Injectable()
export class IngestionService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sessions: SessionsRepository,
    private readonly rollups: PeopleRollupsService,
    private readonly counts: CountCache,
    private readonly idempotency: IdempotencyRecorder,
    private readonly details: SessionsService,
    private readonly webhooks: WebhookOutbox,
    private readonly suppressions: SuppressionList,
  ) {}

  async ingest(organizationId: string, id: string, body: IngestSessionRequest): Promise<IngestSessionResponse> {
    await this.suppressions.refuseSuppressed(organizationId, [{ loc: ['body', 'email'], email: body.email }]);
    const { record, transcript, fingerprint } = toSessionIngestion(body);
    const answer = (personId: string | null): IngestSessionResponse => ({
      id,
      personId,
      analysisStatus: record.analysisStatus,
    });
    const outcome = await this.db.transaction(async (tx) => {
      // Concurrent ingestions of one session id run one after the other.
      await lockNames(tx, [`session:${id}`]);
      const stored = await this.sessions.findStored(tx, id);
      if (stored && stored.organizationId !== organizationId) throw new ConflictError();
      if (stored?.fingerprint === fingerprint) return { personId: stored.personId, changed: false };
      const affected = [stored?.emailKey, record.emailKey].filter((key): key is string => Boolean(key));
      // The people's locks before the session's row (PeopleRollupsService.lockPeople).
      await this.rollups.lockPeople(tx, organizationId, affected);
      await this.sessions.upsert(tx, organizationId, id, record, fingerprint);
      if (transcript) await this.sessions.replaceTranscript(tx, organizationId, id, transcript);
      const people = await this.rollups.refresh(tx, organizationId, affected, new Date());
      const personId = isVisible(record) && record.emailKey ? (people.get(record.emailKey) ?? null) : null;
      // session.analyzed: the ingestion that first shows the session analyzed (and visible), with its detail as GET returns it.
      if (isVisible(record) && stored?.analysisStatus !== 'analyzed') {
        await this.webhooks.record(tx, organizationId, 'session.analyzed', () =>
          this.details.get(organizationId, id, tx),
        );
      }
      // Last: the id's lookup row is locked until commit (on Citus on another shard, distributed by
      // the id), taken after the people's locks, as a deletion takes it.
      if (!stored) await this.sessions.claimId(tx, organizationId, id);
      await this.idempotency.complete(tx, answer(personId));
      return { personId, changed: true };
    });
    if (outcome.changed) {
      // Only a change counts: a client re-sending a session it sent before is not late ingestion.
      observeIngestionLag('session', record.endTime ?? record.startTime);
      await this.counts.invalidate(organizationId, SESSION_LIST, PEOPLE_LIST);
    }
    return answer(outcome.personId);
  }
}
