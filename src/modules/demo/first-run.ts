import type { INestApplicationContext } from '@nestjs/common';
import type { AppConfig } from '../../config/environment';
import { OrganizationsService } from '../organizations';
import { DemoSeedService, type DemoSeedResult } from './demo-seed.service';

/** Whether this process seeds demo data on an empty database (development servers only). */
export function seedsOnFirstRun(config: AppConfig): boolean {
  return config.nodeEnv === 'development' && config.demoSeed && config.appRole !== 'worker';
}

/**
 * The first start of a development server on an empty database fills a demo organization, so a
 * newcomer has data to read at once; later starts find organizations and leave the data alone.
 */
export async function seedDemoOnFirstRun(app: INestApplicationContext): Promise<DemoSeedResult | null> {
  if (await app.get(OrganizationsService).any()) return null;
  return app.get(DemoSeedService).seed();
}

/** What the console shows after a first-run seed: the key (shown only here) and requests to try. */
export function firstRunBanner(seed: DemoSeedResult, baseUrl: string): string {
  const curl = (path: string) => `  curl -s -H "Authorization: Bearer ${seed.key}" ${baseUrl}${path}`;
  return [
    '',
    `Demo organization ${seed.organizationId} seeded: ${seed.sessions} sessions, ${seed.people} people, ${seed.customLinks} Custom Links (DEMO_SEED=false skips this).`,
    'Its API key, with every scope (shown once; keys are stored hashed):',
    `  ${seed.key}`,
    'Try:',
    curl('/api/v1/sessions'),
    curl('/api/v1/people'),
    curl('/api/v1/custom-link-campaigns'),
    '',
  ].join('\n');
}
