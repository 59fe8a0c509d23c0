import { Injectable, Logger, Module } from '@nestjs/common';
import { hostname } from 'node:os';
import { AppConfigService } from '../../config/app-config';
import { startHeartbeat } from '../leases/heartbeat';

/** This process as the holder of job leases: the pod's host name and the process id. */
export const LEASE_OWNER = `${hostname()}:${process.pid}`.slice(0, 128);

/** What a lease on a job row is taken or renewed with: who holds it and for how long. */
export interface LeaseTerms {
  owner: string;
  leaseMs: number;
}

/**
 * Leases on job rows (JOB_LEASE_MS). The row a worker works on names it (`lease_owner`) until a time
 * (`lease_until`) that the worker pushes forward while the work runs; a row whose lease lapsed has
 * nobody working on it, and the JobReaper hands it back to its queue. Leases say who is alive, not
 * who may work: every job is safe to run twice, so a slow worker that lost its lease goes on.
 */
@Injectable()
export class JobLeases {
  private readonly logger = new Logger('JobLeases');

  constructor(private readonly config: AppConfigService) {}

  terms(): LeaseTerms {
    return { owner: LEASE_OWNER, leaseMs: this.config.values.jobLeaseMs };
  }

  /** Runs `work` while renewing the lease with `renew` (which resolves false once the row is finished). */
  async hold<T>(renew: (terms: LeaseTerms) => Promise<boolean>, work: () => Promise<T>): Promise<T> {
    const terms = this.terms();
    const heartbeat = startHeartbeat(
      terms.leaseMs,
      () => renew(terms),
      (err: unknown) => this.logger.warn({ err }, 'Job lease renewal failed'),
    );
    try {
      return await work();
    } finally {
      heartbeat.stop();
    }
  }
}

@Module({ providers: [JobLeases], exports: [JobLeases] })
export class JobLeasesModule {}
