import { hourAndDayWindows, type Reservation } from '../../common/limits/limits.service';
import type { AppConfig } from '../../config/environment';

/**
 * Link creation and thumbnail render units (docs/api.md §8.4): hourly and daily organization
 * windows, one creation unit per requested link and one render unit per card to draw. A request
 * reserves both kinds or neither (LimitsService.reserveAllOrNone); failed or cancelled items give
 * theirs back (LimitsService.refund).
 */
export function linkUnits(limits: AppConfig['limits'], organizationId: string, creationUnits: number, renderUnits: number): Reservation[] {
  return [
    { windows: hourAndDayWindows('link-creation', organizationId, limits.linkCreationUnitsPerHour, limits.linkCreationUnitsPerDay), units: creationUnits },
    { windows: hourAndDayWindows('thumbnail-render', organizationId, limits.thumbnailRenderUnitsPerHour, limits.thumbnailRenderUnitsPerDay), units: renderUnits },
  ];
}
