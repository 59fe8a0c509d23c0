import { Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { OPT_IN_SCOPES, SCOPES } from '../../common/auth/scopes';
import { ApiKeysService } from '../api-keys';
import { OrganizationsService } from '../organizations';
import { IngestionService, IngestSessionRequest } from '../sessions';
import { CreateLinksRequest, CustomLinkListQuery, CustomLinksService, LinkCreationService } from '../custom-links';
import { EventsRequest, EventsService } from '../engagement';
import { CustomLinkJobsService } from '../custom-link-jobs';
import { AgentService, ConversationTestsRequest } from '../agent';
import { CreateSuggestionsRequest, PlaybookService, PutPlaybookRequest } from '../playbook';
import { demoEvents, demoLinks, demoPlaybook, demoSessions } from './demo-data';

export interface DemoSeedResult {
  organizationId: string;
  key: string;
  scopes: string[];
  sessions: number;
  people: number;
  customLinks: number;
  events: number;
}

/** Fills an organization with demo data through the same ingestion path as the API. */
@Injectable()
export class DemoSeedService {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly keys: ApiKeysService,
    private readonly ingestion: IngestionService,
    private readonly links: CustomLinksService,
    private readonly linkCreation: LinkCreationService,
    private readonly jobs: CustomLinkJobsService,
    private readonly events: EventsService,
    private readonly playbook: PlaybookService,
    private readonly agent: AgentService,
  ) {}

  async seed(existingOrganizationId?: string): Promise<DemoSeedResult> {
    const organizationId = existingOrganizationId ?? (await this.organizations.create('Demo organization')).id;
    const sessions = demoSessions(organizationId, new Date());
    const people = new Set<string>();
    for (const session of sessions) {
      const result = await this.ingestion.ingest(
        organizationId,
        session.id,
        plainToInstance(IngestSessionRequest, session.body),
      );
      if (result.personId) people.add(result.personId);
    }
    const customLinks = await this.seedLinks(organizationId);
    const events = await this.seedEngagement(
      organizationId,
      sessions.map((s) => s.id),
    );
    await this.seedPlaybook(organizationId);
    const key = await this.keys.create(
      organizationId,
      SCOPES.filter((scope) => !OPT_IN_SCOPES.includes(scope)),
      'demo',
    );
    return {
      organizationId,
      key: key.key,
      scopes: key.scopes,
      sessions: sessions.length,
      people: people.size,
      customLinks,
      events,
    };
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
    const job = await this.linkCreation.create(organizationId, request, `demo-seed-${organizationId}`);
    await this.jobs.run(organizationId, job.id);
    return request.links.length;
  }

  /** Opens, page views, sessions and conversions on the demo links; eventIds are fixed, so reseeding only repeats them. */
  private async seedEngagement(organizationId: string, sessionIds: string[]): Promise<number> {
    const links = await this.links.list(
      organizationId,
      plainToInstance(CustomLinkListQuery, { limit: 200, sort: 'created_at', order: 'asc' }),
    );
    const inputs = demoEvents(
      organizationId,
      links.customLinks.map((l) => l.id),
      sessionIds,
      new Date(),
    );
    await this.events.ingest(organizationId, plainToInstance(EventsRequest, { events: inputs }).events);
    return inputs.length;
  }

  /** A staging playbook, a suggestion group to apply and a conversation test, once per organization. */
  private async seedPlaybook(organizationId: string): Promise<void> {
    if ((await this.playbook.get(organizationId)).version !== null) return;
    const playbook = demoPlaybook();
    await this.playbook.put(organizationId, plainToInstance(PutPlaybookRequest, { sections: playbook.sections }));
    await this.playbook.createGroup(
      organizationId,
      plainToInstance(CreateSuggestionsRequest, { changes: playbook.suggestions }),
    );
    await this.agent.setTests(organizationId, plainToInstance(ConversationTestsRequest, { tests: playbook.tests }));
  }
}
