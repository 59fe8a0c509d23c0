import { Injectable } from '@nestjs/common';

/**
 * The current time for rules that compare with a stored time (a link's expiry): bound into SQL as a
 * parameter rather than now() (docs/scaling.md, Citus compatibility), and replaced in tests that
 * move time forward instead of waiting.
 */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
