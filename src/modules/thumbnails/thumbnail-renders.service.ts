import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bull';
import { createHash } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { DataSource, type EntityManager } from 'typeorm';
import { enqueue } from '../../common/queue/job-options';
import { AppConfigService } from '../../config/app-config';
import { CardSubjectsRegistry, type CardSubject } from './card-subjects';
import { RENDER_THUMBNAIL, THUMBNAILS_QUEUE, type RenderThumbnailPayload } from './jobs/thumbnails.queue';
import { LogoFetcher } from './rendering/logo-fetcher';
import { renderShareCard } from './rendering/share-card.renderer';
import { THUMBNAIL_STORE, type ThumbnailStore } from './thumbnail-store';
import { ThumbnailsRepository } from './thumbnails.repository';

type Outcome =
  | { status: 'generated'; png: Buffer; error: null }
  | { status: 'fallback'; png: Buffer; error: { code: string; message: string } }
  | { status: 'failed'; png: null; error: { code: string; message: string } };

/**
 * Share-card renders (docs/api.md §12.6): queued with a link change, drawn by a worker, stored in
 * PostgreSQL and served at {PUBLIC_BASE_URL}/thumbnails/{linkId}/{hash}.png. A newer change
 * supersedes an unfinished render (cancelled); a logo that cannot be used gives the default card
 * (fallback) with the reason in thumbnailError. Cards go to the THUMBNAIL_STORE (PostgreSQL by default).
 */
@Injectable()
export class ThumbnailRendersService {
  private readonly logger = new Logger(ThumbnailRendersService.name);
  private readonly logos = new LogoFetcher();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectQueue(THUMBNAILS_QUEUE) private readonly queueOfRenders: Queue<RenderThumbnailPayload>,
    private readonly renders: ThumbnailsRepository,
    private readonly subjects: CardSubjectsRegistry,
    private readonly config: AppConfigService,
    @Inject(THUMBNAIL_STORE) private readonly store: ThumbnailStore,
  ) {}

  /** Records a render of the link for a job (inside the caller's transaction); enqueue it after commit. */
  async queue(tx: EntityManager, organizationId: string, linkId: string, jobId: string): Promise<string> {
    const renderId = uuidv7();
    await this.renders.queue(tx, organizationId, renderId, linkId, jobId);
    await this.subjects.get().markQueued(tx, organizationId, linkId, renderId);
    return renderId;
  }

  async enqueue(organizationId: string, renderIds: string[]): Promise<void> {
    const timeoutMs = this.config.values.timeouts.redisCommandMs;
    await Promise.all(renderIds.map((renderId) => enqueue(this.queueOfRenders, RENDER_THUMBNAIL, { organizationId, renderId }, renderId, timeoutMs)));
  }

  queuedRendersOf(organizationId: string, jobId: string): Promise<string[]> {
    return this.renders.queuedForJob(organizationId, jobId);
  }

  /** Cancels a job's renders that have not started; their links show `cancelled`. Returns how many. */
  async cancelQueuedForJob(tx: EntityManager, organizationId: string, jobId: string): Promise<number> {
    const linkIds = await this.renders.cancelQueuedForJob(tx, organizationId, jobId);
    await this.subjects.get().markCancelled(tx, organizationId, linkIds);
    return linkIds.length;
  }

  /** The worker's run of one render; a superseded or cancelled render only settles its job. */
  async run(organizationId: string, renderId: string): Promise<void> {
    const claimed = await this.db.transaction(async (tx) => {
      const render = await this.renders.claim(tx, organizationId, renderId);
      if (!render) return null;
      const link = await this.subjects.get().lock(tx, organizationId, render.custom_link_id);
      if (link?.renderId === renderId) await this.subjects.get().markProcessing(tx, organizationId, link.id);
      return link ? { render, link } : null;
    });
    if (!claimed) return this.settleJobOf(organizationId, renderId);
    const outcome = await this.draw(claimed.link);
    await this.db.transaction(async (tx) => {
      if (!(await this.renders.finish(tx, organizationId, renderId, outcome.status))) return;
      const link = await this.subjects.get().lock(tx, organizationId, claimed.link.id);
      if (link?.renderId !== renderId) return;
      let url = link.shareThumbnailUrl;
      if (outcome.png) {
        const hash = createHash('sha256').update(outcome.png).digest('hex');
        await this.store.put({ organizationId, linkId: link.id, hash, png: outcome.png }, tx);
        url = `${this.config.values.publicBaseUrl}/thumbnails/${link.id}/${hash}.png`;
      }
      await this.subjects.get().recordOutcome(tx, organizationId, link.id, { status: outcome.status, shareThumbnailUrl: url, attempts: link.attempts + 1, error: outcome.error });
    });
    await this.subjects.get().renderSettled(organizationId, claimed.render.job_id);
  }

  private async draw(link: CardSubject): Promise<Outcome> {
    const card = { name: link.name, company: link.company };
    try {
      if (!link.logoUrl) return { status: 'generated', png: renderShareCard({ ...card, logo: null }), error: null };
      const logo = await this.logos.fetch(link.logoUrl);
      if (!logo.ok) return { status: 'fallback', png: renderShareCard({ ...card, logo: null }), error: { code: logo.code, message: logo.message } };
      try {
        return { status: 'generated', png: renderShareCard({ ...card, logo: { bytes: logo.bytes, mimeType: logo.mimeType } }), error: null };
      } catch {
        return { status: 'fallback', png: renderShareCard({ ...card, logo: null }), error: { code: 'logo_invalid_image', message: 'The logo could not be decoded.' } };
      }
    } catch (error) {
      this.logger.warn({ linkId: link.id, err: error }, 'Render failed');
      return { status: 'failed', png: null, error: { code: 'render_failed', message: 'The share card could not be rendered.' } };
    }
  }

  private async settleJobOf(organizationId: string, renderId: string): Promise<void> {
    const jobId = await this.renders.jobOf(organizationId, renderId);
    if (jobId) await this.subjects.get().renderSettled(organizationId, jobId);
  }
}
