import { Injectable, Logger, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import Bull, { type Job } from 'bull';
import { inRunContextOf } from '../tracing/trace-context';

/**
 * One warning per failed attempt of a job, on every queue, from the process that ran it: Bull
 * retries quietly otherwise. It names the queue, the job and the attempt; the error is described by
 * type, code and frames (describeError via the `err` serializer), never by the job's data. Written
 * in the attempt's trace context, so that with tracing on it carries the attempt's trace ids.
 */
@Injectable()
export class QueueFailureLog implements OnApplicationBootstrap {
  private readonly logger = new Logger('Queue');

  constructor(private readonly discovery: DiscoveryService) {}

  onApplicationBootstrap(): void {
    const queues = new Set<Bull.Queue>();
    for (const wrapper of this.discovery.getProviders()) {
      if (wrapper.instance instanceof Bull) queues.add(wrapper.instance as Bull.Queue);
    }
    for (const queue of queues) queue.on('failed', (job: Job, err: Error) => this.failed(queue.name, job, err));
  }

  private failed(queue: string, job: Job, err: Error): void {
    const attempts = job.opts.attempts ?? 1;
    inRunContextOf(job, () =>
      this.logger.warn(
        { queue, job: job.name, jobId: job.id, attempt: job.attemptsMade, attempts, err },
        job.attemptsMade >= attempts ? 'Job failed' : 'Job attempt failed, retrying',
      ),
    );
  }
}

@Module({ imports: [DiscoveryModule], providers: [QueueFailureLog] })
export class QueueFailureLogModule {}
