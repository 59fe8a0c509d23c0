import { Module } from '@nestjs/common';
import { SuppressionList } from './suppression-list.service';
import { SuppressionsRepository } from './suppressions.repository';

/**
 * The suppression list (docs/api.md §18.3) for every role: privacy adds to it when an erasure asks
 * to suppress; sessions and custom-links read it to refuse a suppressed email. Depends on no module.
 */
@Module({ providers: [SuppressionsRepository, SuppressionList], exports: [SuppressionList] })
export class SuppressionsModule {}
