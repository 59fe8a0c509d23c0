import { Injectable } from '@nestjs/common';
import { SessionsRepository } from './sessions.repository';

/** Below this many visible sessions an organization's searches read every gram: each list is short. */
const SAMPLE_FROM_SESSIONS = 10_000;
/** Organizations sampled per sweep (a sample reads its organization's emails once). */
const SAMPLES_PER_SWEEP = 10;

/**
 * The organizations' email gram shares, by which a search asks the grams index for its rarest grams
 * (searchedGrams): sampled once an organization reaches SAMPLE_FROM_SESSIONS visible sessions and
 * again whenever that number moved by a quarter, by a maintenance sweep (workers).
 */
@Injectable()
export class EmailGramSamples {
  constructor(private readonly sessions: SessionsRepository) {}

  /** Samples the organizations that are due (at most SAMPLES_PER_SWEEP); returns how many. */
  async sweep(): Promise<number> {
    const due = await this.sessions.emailGramSamplesDue(SAMPLE_FROM_SESSIONS, SAMPLES_PER_SWEEP);
    for (const organizationId of due) await this.sample(organizationId);
    return due.length;
  }

  private async sample(organizationId: string): Promise<void> {
    const sample = await this.sessions.sampleEmailGrams(organizationId);
    await this.sessions.saveEmailGramSample(organizationId, sample, new Date());
  }
}
