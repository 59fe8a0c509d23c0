import type { AppConfig } from '../../config/environment';
import { linkUnits } from './link-limits';

const ORG = '01a2026c-f1ee-742c-8811-1fa4750392ae';
const LIMITS = {
  linkCreationUnitsPerHour: 5000,
  linkCreationUnitsPerDay: 20000,
  thumbnailRenderUnitsPerHour: 2000,
  thumbnailRenderUnitsPerDay: 10000,
} as AppConfig['limits'];

describe('linkUnits (docs/api.md §8.4)', () => {
  it('reserves creation units, then render units, each in an hourly and a daily window of the organization', () => {
    expect(linkUnits(LIMITS, ORG, 3, 2)).toEqual([
      {
        units: 3,
        windows: [
          { key: `limit:link-creation:hour:{${ORG}}`, limit: 5000, ttlMs: 3_600_000 },
          { key: `limit:link-creation:day:{${ORG}}`, limit: 20000, ttlMs: 86_400_000 },
        ],
      },
      {
        units: 2,
        windows: [
          { key: `limit:thumbnail-render:hour:{${ORG}}`, limit: 2000, ttlMs: 3_600_000 },
          { key: `limit:thumbnail-render:day:{${ORG}}`, limit: 10000, ttlMs: 86_400_000 },
        ],
      },
    ]);
  });
});
