import { ApiProperty } from '@nestjs/swagger';
import { ApiInteger } from '../../../common/http/api-integer';

const text = { type: String, nullable: true } as const;

export class AgentLinkResponse {
  @ApiProperty(text) url: string | null;
  @ApiProperty(text) availabilityReason: string | null;
}

/** AgentLinks (docs/api.md §2.12). */
export class AgentLinksResponse {
  @ApiProperty({ type: AgentLinkResponse }) staging: AgentLinkResponse;
  @ApiProperty({ type: AgentLinkResponse }) production: AgentLinkResponse;
}

export class SectionResponse {
  @ApiProperty() key: string;
  @ApiProperty() title: string;
  @ApiProperty() content: string;
}

export class PlaybookResponse {
  @ApiInteger({ nullable: true, description: 'Staging version; null before the first.' }) version: number | null;
  @ApiInteger({ nullable: true }) productionVersion: number | null;
  @ApiProperty({ type: [SectionResponse] }) sections: SectionResponse[];
  @ApiProperty({ minLength: 64, maxLength: 64 }) sectionsEtag: string;
  @ApiProperty({ type: AgentLinksResponse }) links: AgentLinksResponse;
}

export class ChangeResponse {
  @ApiProperty() changeId: string;
  @ApiProperty() sectionKey: string;
  @ApiProperty({ enum: ['replace', 'add', 'remove'] }) operation: string;
  @ApiProperty(text) title: string | null;
  @ApiProperty(text) content: string | null;
  @ApiProperty(text) rationale: string | null;
}

export class SuggestionGroupResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiInteger() generationRevision: number;
  @ApiProperty({ enum: ['open', 'applied'] }) status: string;
  @ApiProperty({ type: [ChangeResponse] }) changes: ChangeResponse[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class SuggestionGroupListResponse {
  @ApiProperty({ type: [SuggestionGroupResponse] }) suggestionGroups: SuggestionGroupResponse[];
  @ApiInteger() total: number;
  @ApiInteger() limit: number;
  @ApiInteger() offset: number;
}

export class PreviewResponse {
  @ApiProperty({ type: [SectionResponse] }) sections: SectionResponse[];
  @ApiProperty() sectionsEtag: string;
  @ApiInteger() generationRevision: number;
}

/** Apply result (docs/api.md §4.6). */
export class ApplyResponse {
  @ApiProperty({ format: 'uuid' }) groupId: string;
  @ApiProperty({ enum: ['applied'] }) status: 'applied';
  @ApiInteger({ nullable: true }) version: number | null;
  @ApiProperty() noChange: boolean;
  @ApiProperty() sectionsEtag: string;
  @ApiProperty({ type: AgentLinksResponse }) links: AgentLinksResponse;
}
