import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bull';
import { createHash } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { DataSource, type EntityManager } from 'typeorm';
import { observeCardRender } from '../../common/metrics/work-metrics';
import { JobLeases, type LeaseTerms } from '../../common/queue/job-leases';
import { enqueue } from '../../common/queue/job-options';
import type { LapsedJob } from '../../common/queue/job-reaper';
import { InjectPort } from '../../common/wiring/port';
import { AppConfigService } from '../../config/app-config';
import { CustomLinkJobsService } from '../custom-link-jobs';
import { CardRenderer } from './card-renderer';
import { CARD_SUBJECTS, type CardSubject, type CardSubjects } from './card-subjects';
import { RENDER_THUMBNAIL, THUMBNAILS_QUEUE, type RenderThumbnailPayload } from './jobs/thumbnails.queue';
import { LogoFetcher } from './rendering/logo-fetcher';
import { thumbnailError, type ThumbnailError } from './thumbnail-errors';
import { THUMBNAIL_STORE, type ThumbnailStore } from './thumbnail-store';
import { ThumbnailsRepository } from './thumbnails.repository';

type Outcome =
  | { status: 'generated'; png: Buffer; error: null }
  | { status: 'fallback'; png: Buffer; error: ThumbnailError }
  | { status: 'failed'; png: null; error: ThumbnailError };

/**
 * Share-card renders (docs/api.md §12.6): queued with a link change, drawn by a worker on its
 * drawing threads (CardRenderer), stored in PostgreSQL and served at
 * {PUBLIC_BASE_URL}/thumbnails/{linkId}/{hash}.png. A newer change supersedes an unfinished render
 * (cancelled); a logo that cannot be used gives the default card (fallback) with the reason's code in
 * thumbnailError. A new card replaces the link's earlier ones. Cards go to the THUMBNAIL_STORE
 * (PostgreSQL by default).
 */
@Injectable()
export class ThumbnailRendersService {
  private readonly logger = new Logger(ThumbnailRendersService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectQueue(THUMBNAILS_QUEUE) private readonly queueOfRenders: Queue<RenderThumbnailPayload>,
    private readonly renders: ThumbnailsRepository,
    @InjectPort(CARD_SUBJECTS) private readonly subjects: CardSubjects,
    private readonly config: AppConfigService,
    @Inject(THUMBNAIL_STORE) private readonly store: ThumbnailStore,
    private readonly logos: LogoFetcher,
    private readonly cards: CardRenderer,
    private readonly leases: JobLeases,
    private readonly jobs: CustomLinkJobsService,
  ) {}

  /**
   * Records a render of the link for a job (inside the caller's transaction): the link's unfinished
   * renders are superseded (cancelled); the caller has the link wait for the returned one. Enqueue
   * it after commit.
   */
  async queue(tx: EntityManager, organizationId: string, linkId: string, jobId: string): Promise<string> {
    const renderId = uuidv7();
    await this.renders.cancelUnfinishedForLink(tx, organizationId, linkId);
    await this.renders.insert(tx, organizationId, renderId, linkId, jobId);
    return renderId;
  }

  /** A render id for a link about to be created already waiting for it (queueFirst). */
  newRenderId(): string {
    return uuidv7();
  }

  /**
   * Records the first render of a link created in the caller's transaction, which recorded it
   * queued and waiting for `renderId`: there is nothing to supersede. Enqueue it after commit.
   */
  async queueFirst(
    tx: EntityManager,
    organizationId: string,
    linkId: string,
    renderId: string,
    jobId: string,
  ): Promise<void> {
    await this.renders.insert(tx, organizationId, renderId, linkId, jobId);
  }

  async enqueue(organizationId: string, renderIds: string[]): Promise<void> {
    const timeoutMs = this.config.values.timeouts.redisCommandMs;
    await Promise.all(
      renderIds.map((renderId) =>
        enqueue(this.queueOfRenders, RENDER_THUMBNAIL, { organizationId, renderId }, renderId, timeoutMs),
      ),
    );
  }

  queuedRendersOf(organizationId: string, jobId: string): Promise<string[]> {
    return this.renders.queuedForJob(organizationId, jobId);
  }

  /** Unfinished renders whose lease lapsed, for the JobReaper (ReapableJobs.reclaimLapsed). */
  reclaimLapsed(lease: LeaseTerms, limit: number): Promise<LapsedJob[]> {
    return this.renders.reclaimLapsed(lease, limit);
  }

  /** The renders each of these jobs asked for, and how many of them settled, by job id. */
  progressOfJobs(
    organizationId: string,
    jobIds: string[],
    tx?: EntityManager,
  ): Promise<Map<string, { queued: number; settled: number }>> {
    return this.renders.progressOfJobs(organizationId, jobIds, tx);
  }

  /** Among these jobs (of any organization), the ids of those with a render still queued or being drawn. */
  jobsDrawing(jobs: { organizationId: string; id: string }[]): Promise<Set<string>> {
    return this.renders.jobsDrawing(jobs);
  }

  /**
   * The link's card is provided from now on (inside the caller's transaction): its unfinished
   * renders are cancelled (their jobs settle when their queue jobs run) and its rendered cards deleted.
   */
  async withdraw(tx: EntityManager, organizationId: string, linkId: string): Promise<void> {
    await this.renders.cancelUnfinishedForLink(tx, organizationId, linkId);
    await this.store.prune({ organizationId, linkId, keep: null }, tx);
  }

  /** Cancels a job's renders that have not started; returns their links (the caller shows them cancelled). */
  cancelQueuedForJob(tx: EntityManager, organizationId: string, jobId: string): Promise<string[]> {
    return this.renders.cancelQueuedForJob(tx, organizationId, jobId);
  }

  /**
   * The worker's run of one render, leased while it draws; a superseded or cancelled render only
   * settles its job. Run twice, it draws twice but records one outcome (the first to finish).
   */
  async run(organizationId: string, renderId: string): Promise<void> {
    const render = await this.renders.claim(organizationId, renderId, this.leases.terms());
    const subject = render ? await this.subjects.startRender(organizationId, render.custom_link_id, renderId) : null;
    if (!render || !subject) return this.settleJobOf(organizationId, renderId);
    const started = Date.now();
    const outcome = await this.leases.hold(
      (lease) => this.renders.renewLease(organizationId, renderId, lease),
      () => this.draw(subject),
    );
    observeCardRender(outcome.error?.code === 'render_timeout' ? 'timeout' : outcome.status, Date.now() - started);
    const card = outcome.png
      ? { png: outcome.png, hash: createHash('sha256').update(outcome.png).digest('hex') }
      : null;
    await this.db.transaction(async (tx) => {
      if (!(await this.renders.finish(tx, organizationId, renderId, outcome.status))) return;
      const newCardUrl = card ? `${this.config.values.publicBaseUrl}/thumbnails/${subject.id}/${card.hash}.png` : null;
      const recorded = await this.subjects.recordOutcome(tx, organizationId, subject.id, renderId, {
        status: outcome.status,
        newCardUrl,
        error: outcome.error,
      });
      if (recorded === null || !card) return;
      await this.store.put({ organizationId, linkId: subject.id, ...card }, tx);
      // The cards of earlier renders are superseded: nothing points at them any more. Only a render
      // that recorded its outcome stores a card, so before the subject's first there is none.
      if (recorded > 1) await this.store.prune({ organizationId, linkId: subject.id, keep: card.hash }, tx);
    });
    await this.settleJob(organizationId, render.job_id);
  }

  /** Fetches the logo (I/O on this thread), then draws on a drawing thread within the render timeout. */
  private async draw(link: CardSubject): Promise<Outcome> {
    const fetched = link.logoUrl ? await this.logos.fetch(link.logoUrl) : null;
    const logo = fetched?.ok ? { bytes: fetched.bytes, mimeType: fetched.mimeType } : null;
    const drawn = await this.cards.draw({ name: link.name, company: link.company, logo });
    if (drawn.status !== 'drawn') {
      const code = drawn.status === 'timeout' ? 'render_timeout' : 'render_failed';
      this.logger.warn(`Render of link ${link.id} failed: ${code}`);
      return { status: 'failed', png: null, error: thumbnailError(code) };
    }
    if (fetched && !fetched.ok) return { status: 'fallback', png: drawn.png, error: thumbnailError(fetched.code) };
    if (drawn.logo === 'unusable')
      return { status: 'fallback', png: drawn.png, error: thumbnailError('logo_invalid_image') };
    return { status: 'generated', png: drawn.png, error: null };
  }

  private async settleJobOf(organizationId: string, renderId: string): Promise<void> {
    const jobId = await this.renders.jobOf(organizationId, renderId);
    if (jobId) await this.settleJob(organizationId, jobId);
  }

  /** A job settles after its last render: while another is pending, that one's run settles it. */
  private async settleJob(organizationId: string, jobId: string): Promise<void> {
    if (!(await this.renders.unfinishedForJob(organizationId, jobId)))
      await this.jobs.settleIfDone(organizationId, jobId);
  }
}
