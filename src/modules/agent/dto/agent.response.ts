import { ApiProperty } from '@nestjs/swagger';
import { AgentLinksResponse } from '../../playbook';
import { ApiInteger } from '../../../common/http/api-integer';

const text = { type: String, nullable: true } as const;
const time = { type: String, format: 'date-time', nullable: true } as const;

export class ConversationTestResponse {
  @ApiProperty() name: string;
  @ApiProperty(text) sectionKey: string | null;
  @ApiProperty({ type: [String] }) mustContain: string[];
  @ApiProperty({ type: [String] }) mustNotContain: string[];
}

export class ConversationTestsResponse {
  @ApiProperty({ type: [ConversationTestResponse] }) tests: ConversationTestResponse[];
}

/** Publish job (docs/api.md §2.12). */
export class PublishJobResponse {
  @ApiProperty({ format: 'uuid' }) jobId: string;
  @ApiProperty({ enum: ['queued', 'running', 'succeeded', 'failed'] }) status: string;
  @ApiInteger() requestedVersion: number;
  @ApiProperty({ type: AgentLinksResponse }) links: AgentLinksResponse;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty(text) errorCode: string | null;
  @ApiProperty(text) errorMessage: string | null;
  @ApiProperty(text) productionLink: string | null;
  @ApiProperty(time) completedAt: string | null;
}

export class AgentResponse {
  @ApiInteger({ nullable: true }) stagingVersion: number | null;
  @ApiInteger({ nullable: true }) productionVersion: number | null;
  @ApiProperty({ type: AgentLinksResponse }) links: AgentLinksResponse;
}
