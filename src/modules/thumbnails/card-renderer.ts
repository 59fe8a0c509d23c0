import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { join } from 'node:path';
import { AppConfigService } from '../../config/app-config';
import type { CardAnswer, CardTask } from './rendering/render-worker';
import { WorkerPool } from './rendering/worker-pool';

/** The script card-drawing threads run, and what they get as workerData. */
export interface RenderWorker {
  script: string | URL;
  workerData?: unknown;
}

/** The compiled render-worker next to this file; tests running the TypeScript sources provide the built one. */
export const RENDER_WORKER = Symbol('RENDER_WORKER');
export const renderWorkerProvider = {
  provide: RENDER_WORKER,
  useValue: { script: join(__dirname, 'rendering', 'render-worker.js') } satisfies RenderWorker,
};

// A card needs a few MiB of JavaScript heap (the logo as a data: URI, the SVG text); the decoded
// pixels live in resvg's native memory, bounded by the logo's checked dimensions.
const THREAD_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 };

export type CardRendering =
  { status: 'drawn'; png: Buffer; logo: 'drawn' | 'none' | 'unusable' } | { status: 'failed' } | { status: 'timeout' };

/**
 * Draws share cards on worker threads (THUMBNAIL_RENDER_THREADS of them, started on the first card,
 * so an API process never starts any), each card within THUMBNAIL_RENDER_TIMEOUT_MS.
 */
@Injectable()
export class CardRenderer implements OnApplicationShutdown {
  private pool: WorkerPool<CardTask, CardAnswer> | null = null;

  constructor(
    private readonly config: AppConfigService,
    @Inject(RENDER_WORKER) private readonly worker: RenderWorker,
  ) {}

  /** Rejects with WorkerPoolClosedError during shutdown, so the render's queue job is retried rather than failed. */
  async draw(task: CardTask): Promise<CardRendering> {
    const { renderThreads, renderTimeoutMs } = this.config.values.thumbnails;
    this.pool ??= new WorkerPool({
      ...this.worker,
      threads: renderThreads,
      timeoutMs: renderTimeoutMs,
      resourceLimits: THREAD_LIMITS,
    });
    const outcome = await this.pool.run(task);
    if (outcome.status === 'timeout') return { status: 'timeout' };
    if (outcome.status === 'crashed' || !outcome.result.ok) return { status: 'failed' };
    const { png, logo } = outcome.result;
    return { status: 'drawn', png: Buffer.from(png.buffer, png.byteOffset, png.byteLength), logo };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool?.close();
  }
}
