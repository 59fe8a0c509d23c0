import { Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { SCOPES } from '../../common/auth/scopes';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { OrganizationsService } from '../organizations/organizations.service';
import { IngestSessionRequest } from '../sessions/dto/ingest-session.request';
import { IngestionService } from '../sessions/ingestion.service';
import { demoSessions } from './demo-data';

export interface DemoSeedResult {
  organizationId: string;
  key: string;
  scopes: string[];
  sessions: number;
  people: number;
}

/** Fills an organization with demo data through the same ingestion path as the API. */
@Injectable()
export class DemoSeedService {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly keys: ApiKeysService,
    private readonly ingestion: IngestionService,
  ) {}

  async seed(existingOrganizationId?: string): Promise<DemoSeedResult> {
    const organizationId = existingOrganizationId ?? (await this.organizations.create('Demo organization')).id;
    const sessions = demoSessions(organizationId, new Date());
    const people = new Set<string>();
    for (const session of sessions) {
      const result = await this.ingestion.ingest(organizationId, session.id, plainToInstance(IngestSessionRequest, session.body));
      if (result.personId) people.add(result.personId);
    }
    const key = await this.keys.create(organizationId, [...SCOPES], 'demo');
    return { organizationId, key: key.key, scopes: key.scopes, sessions: sessions.length, people: people.size };
  }
}
