import { hourAndDayWindows, type Reservation } from '../../common/limits/limits.service';
import type { Window } from '../../common/counters/window-counter';
import type { AppConfig } from '../../config/environment';

/** The organization's link creation windows (hour, day): one unit per requested link. */
export function linkCreationWindows(limits: AppConfig['limits'], organizationId: string): Window[] {
  return hourAndDayWindows(
    'link-creation',
    organizationId,
    limits.linkCreationUnitsPerHour,
    limits.linkCreationUnitsPerDay,
  );
}

/** The organization's thumbnail render windows (hour, day): one unit per card to draw. */
export function thumbnailRenderWindows(limits: AppConfig['limits'], organizationId: string): Window[] {
  return hourAndDayWindows(
    'thumbnail-render',
    organizationId,
    limits.thumbnailRenderUnitsPerHour,
    limits.thumbnailRenderUnitsPerDay,
  );
}

/**
 * Link creation and thumbnail render units (docs/api.md §8.4): hourly and daily organization
 * windows, one creation unit per requested link and one render unit per card to draw. A request
 * reserves both kinds or neither (LimitsService.reserveAllOrNone); failed or cancelled items give
 * theirs back (LimitsService.refund).
 */
export function linkUnits(
  limits: AppConfig['limits'],
  organizationId: string,
  creationUnits: number,
  renderUnits: number,
): Reservation[] {
  return [
    { windows: linkCreationWindows(limits, organizationId), units: creationUnits },
    { windows: thumbnailRenderWindows(limits, organizationId), units: renderUnits },
  ];
}
