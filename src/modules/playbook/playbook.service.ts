import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { v7 as uuidv7 } from 'uuid';
import { DataSource, type EntityManager } from 'typeorm';
import { ConflictError, NotFoundError, UnavailableError } from '../../common/errors/domain-errors';
import { IdempotencyRecorder } from '../../common/idempotency/idempotency-recorder';
import { AppConfigService } from '../../config/app-config';
import { agentLinks } from './agent-links';
import type {
  ApplySuggestionsRequest,
  CreateSuggestionsRequest,
  PreviewRequest,
  PutPlaybookRequest,
} from './dto/playbook.request';
import type {
  ApplyResponse,
  PlaybookResponse,
  PreviewResponse,
  SuggestionGroupListResponse,
  SuggestionGroupResponse,
} from './dto/playbook.response';
import { PlaybookRepository, type GroupRow } from './playbook.repository';
import { applyChanges, sameSections, sectionsEtag, type Change, type Section } from './rules/sections';

export interface AgentState {
  stagingVersion: number | null;
  productionVersion: number | null;
  conversationTests: unknown[];
}

const toGroupResponse = (group: GroupRow): SuggestionGroupResponse => ({
  id: group.id,
  generationRevision: group.generation_revision,
  status: group.status,
  changes: group.changes,
  createdAt: group.created_at.toISOString(),
});

/**
 * The playbook (docs/api.md §4.6, §14): versions, suggestion groups, preview and apply. Writes
 * lock the organization's agent row, so concurrent applies on one etag serialise and exactly one
 * finds its etag current.
 */
@Injectable()
export class PlaybookService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly playbook: PlaybookRepository,
    private readonly config: AppConfigService,
    private readonly idempotency: IdempotencyRecorder,
  ) {}

  /**
   * The agent's pointers and tests, for the agent module; `lock` holds the row for the caller's
   * transaction (publishes serialise with applies on it).
   */
  async agentState(organizationId: string, tx?: EntityManager, lock = false): Promise<AgentState> {
    const agent = await this.playbook.agent(organizationId, tx, lock);
    return {
      stagingVersion: agent.staging_version,
      productionVersion: agent.production_version,
      conversationTests: agent.conversation_tests,
    };
  }

  /** A version's sections, or null when the organization has no such version. */
  async versionSections(organizationId: string, version: number, tx?: EntityManager): Promise<Section[] | null> {
    return this.playbook.sections(organizationId, version, tx);
  }

  /** Makes a version production, inside the publishing transaction. */
  async promote(tx: EntityManager, organizationId: string, version: number): Promise<void> {
    await this.playbook.setProduction(tx, organizationId, version);
  }

  async saveConversationTests(organizationId: string, tests: unknown[]): Promise<void> {
    await this.playbook.setTests(organizationId, tests);
  }

  async get(organizationId: string): Promise<PlaybookResponse> {
    const agent = await this.playbook.agent(organizationId);
    const sections = (await this.playbook.sections(organizationId, agent.staging_version)) ?? [];
    return this.response(organizationId, agent.staging_version, agent.production_version, sections);
  }

  /** A new staging version; a stale expectedSectionsEtag is a 409; identical sections add no version. */
  async put(organizationId: string, body: PutPlaybookRequest): Promise<PlaybookResponse> {
    const sections: Section[] = body.sections.map((s) => ({ key: s.key, title: s.title, content: s.content }));
    return this.committed(async (tx) => {
      const agent = await this.playbook.agent(organizationId, tx, true);
      const current = (await this.playbook.sections(organizationId, agent.staging_version, tx)) ?? [];
      if (body.expectedSectionsEtag !== undefined && body.expectedSectionsEtag !== sectionsEtag(current))
        throw new ConflictError();
      if (agent.staging_version !== null && sameSections(current, sections))
        return this.response(organizationId, agent.staging_version, agent.production_version, current);
      const version = (agent.staging_version ?? 0) + 1;
      await this.playbook.addVersion(tx, organizationId, version, sections, sectionsEtag(sections));
      return this.response(organizationId, version, agent.production_version, sections);
    });
  }

  async createGroup(organizationId: string, body: CreateSuggestionsRequest): Promise<SuggestionGroupResponse> {
    const ids = body.changes.map((c) => c.changeId);
    if (new Set(ids).size !== ids.length) throw new ConflictError();
    const changes: Change[] = body.changes.map((c) => ({
      changeId: c.changeId,
      sectionKey: c.sectionKey,
      operation: c.operation,
      title: c.title ?? null,
      content: c.content ?? null,
      rationale: c.rationale ?? null,
    }));
    return this.committed(async (tx) =>
      toGroupResponse(await this.playbook.insertGroup(organizationId, uuidv7(), changes, tx)),
    );
  }

  async listGroups(organizationId: string, limit: number, offset: number): Promise<SuggestionGroupListResponse> {
    const { rows, total } = await this.playbook.listGroups(organizationId, limit, offset);
    return { suggestionGroups: rows.map(toGroupResponse), total, limit, offset };
  }

  async getGroup(organizationId: string, groupId: string): Promise<SuggestionGroupResponse> {
    const group = await this.playbook.group(organizationId, groupId);
    if (!group) throw NotFoundError.inOrganization('Suggestion group');
    return toGroupResponse(group);
  }

  /** The sections the selected changes would give; edits store new wording and raise generationRevision. */
  async preview(organizationId: string, groupId: string, body: PreviewRequest): Promise<PreviewResponse> {
    return this.committed(async (tx) => {
      const group = await this.playbook.group(organizationId, groupId, tx, true);
      if (!group) throw NotFoundError.inOrganization('Suggestion group');
      const edits = body.edits ?? [];
      const known = new Set(group.changes.map((c) => c.changeId));
      if ([...body.changeIds, ...edits.map((e) => e.changeId)].some((id) => !known.has(id))) throw new ConflictError();
      let { changes, generation_revision: revision } = group;
      if (edits.length > 0) {
        const wording = new Map(edits.map((e) => [e.changeId, e.content]));
        changes = changes.map((c) =>
          wording.has(c.changeId) ? { ...c, content: wording.get(c.changeId) as string } : c,
        );
        revision += 1;
        await this.playbook.updateGroup(tx, organizationId, groupId, { changes, generationRevision: revision });
      }
      const agent = await this.playbook.agent(organizationId, tx);
      const current = (await this.playbook.sections(organizationId, agent.staging_version, tx)) ?? [];
      const sections = applyChanges(current, selected(changes, body.changeIds));
      return { sections, sectionsEtag: sectionsEtag(sections), generationRevision: revision };
    });
  }

  /** docs/api.md §14.4: revision, etag and changeIds checked under the agent lock; exactly one of racing applies wins. */
  async apply(organizationId: string, groupId: string, body: ApplySuggestionsRequest): Promise<ApplyResponse> {
    if (!this.config.values.playbookApplyEnabled) throw new UnavailableError();
    return this.committed(async (tx) => {
      const group = await this.playbook.group(organizationId, groupId, tx);
      if (!group) throw NotFoundError.inOrganization('Suggestion group');
      const agent = await this.playbook.agent(organizationId, tx, true);
      const current = (await this.playbook.sections(organizationId, agent.staging_version, tx)) ?? [];
      const known = new Set(group.changes.map((c) => c.changeId));
      if (
        body.expectedGenerationRevision !== group.generation_revision ||
        body.expectedSectionsEtag !== sectionsEtag(current) ||
        body.changeIds.some((id) => !known.has(id))
      ) {
        throw new ConflictError();
      }
      const sections = applyChanges(current, selected(group.changes, body.changeIds));
      const links = agentLinks(this.config.values.agentBaseUrl, organizationId, agent.production_version);
      await this.playbook.updateGroup(tx, organizationId, groupId, { status: 'applied' });
      if (sameSections(current, sections))
        return {
          groupId,
          status: 'applied',
          version: null,
          noChange: true,
          sectionsEtag: sectionsEtag(current),
          links,
        };
      const version = (agent.staging_version ?? 0) + 1;
      await this.playbook.addVersion(tx, organizationId, version, sections, sectionsEtag(sections));
      return { groupId, status: 'applied', version, noChange: false, sectionsEtag: sectionsEtag(sections), links };
    });
  }

  /** Runs a write in a transaction that also commits its answer as the request's Idempotency-Key answer. */
  private committed<T>(write: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      const answer = await write(tx);
      await this.idempotency.complete(tx, answer);
      return answer;
    });
  }

  private response(
    organizationId: string,
    version: number | null,
    productionVersion: number | null,
    sections: Section[],
  ): PlaybookResponse {
    return {
      version,
      productionVersion,
      sections,
      sectionsEtag: sectionsEtag(sections),
      links: agentLinks(this.config.values.agentBaseUrl, organizationId, productionVersion),
    };
  }
}

/** The selected changes in group order (docs/api.md §14.4), not request order. */
function selected(changes: Change[], changeIds: string[]): Change[] {
  const wanted = new Set(changeIds);
  return changes.filter((c) => wanted.has(c.changeId));
}
