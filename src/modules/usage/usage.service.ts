import { Injectable } from '@nestjs/common';
import { LimitsService, mutationWindow, type RequestCharge } from '../../common/limits/limits.service';
import type { Window } from '../../common/counters/window-counter';
import { AppConfigService } from '../../config/app-config';
import { linkCreationWindows, thumbnailRenderWindows } from '../custom-links';
import { TranscriptQuota } from '../sessions';
import {
  toUsageWindow,
  type HourAndDayUsageResponse,
  type UsageResponse,
  type UsageWindowResponse,
} from './dto/usage.response';

/**
 * What is left of each limit (docs/api.md §8), read from the very windows the limits charge: the
 * same Redis keys and ends (LimitsService, link-limits) and the transcript count the sessions module
 * keeps. Reading charges nothing, except the request itself, like any authenticated request.
 */
@Injectable()
export class UsageService {
  constructor(
    private readonly limits: LimitsService,
    private readonly transcripts: TranscriptQuota,
    private readonly config: AppConfigService,
  ) {}

  async usage(organizationId: string, request: RequestCharge, now = Date.now()): Promise<UsageResponse> {
    const limits = this.config.values.limits;
    const [transcripts, [mutations], creation, render] = await Promise.all([
      this.transcripts.usage(organizationId, now),
      this.read([mutationWindow(organizationId, limits.linkMutationsPerMinute)], now),
      this.read(linkCreationWindows(limits, organizationId), now),
      this.read(thumbnailRenderWindows(limits, organizationId), now),
    ]);
    return {
      // The charge the request-rate guard made for this request: the same figures as its headers.
      requestRate: toUsageWindow(request.window.limit, request.state.count, request.state.endsAt),
      transcriptReads: toUsageWindow(transcripts.limit, transcripts.used, transcripts.endsAt),
      linkMutations: mutations,
      linkCreationUnits: hourAndDay(creation),
      thumbnailRenderUnits: hourAndDay(render),
    };
  }

  private async read(windows: Window[], now: number): Promise<UsageWindowResponse[]> {
    const states = await this.limits.read(windows, now);
    return states.map((state, i) => toUsageWindow(windows[i].limit, state.count, state.endsAt));
  }
}

function hourAndDay([hour, day]: UsageWindowResponse[]): HourAndDayUsageResponse {
  return { hour, day };
}
