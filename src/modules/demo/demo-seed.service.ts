import { Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { SCOPES } from '../../common/auth/scopes';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { OrganizationsService } from '../organizations/organizations.service';
import { IngestSessionRequest } from '../sessions/dto/ingest-session.request';
import { IngestionService } from '../sessions/ingestion.service';
import { CustomLinkJobsService } from '../custom-links/custom-link-jobs.service';
import { CustomLinksService } from '../custom-links/custom-links.service';
import { CreateLinksRequest } from '../custom-links/dto/create-links.request';
import { CustomLinkListQuery } from '../custom-links/dto/custom-link-list.query';
import { demoLinks, demoSessions } from './demo-data';

export interface DemoSeedResult {
  organizationId: string;
  key: string;
  scopes: string[];
  sessions: number;
  people: number;
  customLinks: number;
}

/** Fills an organization with demo data through the same ingestion path as the API. */
@Injectable()
export class DemoSeedService {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly keys: ApiKeysService,
    private readonly ingestion: IngestionService,
    private readonly links: CustomLinksService,
    private readonly jobs: CustomLinkJobsService,
  ) {}

  async seed(existingOrganizationId?: string): Promise<DemoSeedResult> {
    const organizationId = existingOrganizationId ?? (await this.organizations.create('Demo organization')).id;
    const sessions = demoSessions(organizationId, new Date());
    const people = new Set<string>();
    for (const session of sessions) {
      const result = await this.ingestion.ingest(organizationId, session.id, plainToInstance(IngestSessionRequest, session.body));
      if (result.personId) people.add(result.personId);
    }
    const customLinks = await this.seedLinks(organizationId);
    const key = await this.keys.create(organizationId, [...SCOPES], 'demo');
    return { organizationId, key: key.key, scopes: key.scopes, sessions: sessions.length, people: people.size, customLinks };
  }

  /**
   * A campaign of Custom Links for the demo prospects, created by the same job code the workers
   * run (here in-process). Their share cards render when a worker runs. Skipped when the
   * organization already has links, so reseeding adds none.
   */
  private async seedLinks(organizationId: string): Promise<number> {
    const existing = await this.links.list(organizationId, plainToInstance(CustomLinkListQuery, { limit: 1 }));
    if (existing.total > 0) return existing.total;
    const request = plainToInstance(CreateLinksRequest, { links: demoLinks(), campaign: { name: 'Demo outreach' } });
    const job = await this.jobs.create(organizationId, request, `demo-seed-${organizationId}`);
    await this.jobs.run(organizationId, job.id);
    return request.links.length;
  }
}
