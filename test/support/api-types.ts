import type { components } from '../../client/index';

/**
 * The API's request and response shapes as the tests read them: the generated client's types
 * (client/schema.d.ts, from openapi.json by `npm run openapi`) under short names, never a copy of
 * their own. A field the document does not declare, or a value outside a declared enum, fails to
 * compile; the contract check (support/openapi-contract.ts) holds the answers to the same document.
 */
type Schemas = components['schemas'];

export type Account = Schemas['AccountResponse'];
export type AccountPage = Schemas['AccountListResponse'];
export type AccountEngagement = Schemas['AccountEngagementResponse'];
export type AccountActivityPage = Schemas['AccountActivityListResponse'];
export type AccountActivityItem = Schemas['AccountActivityItemResponse'];
export type Person = Schemas['PersonResponse'];
export type PeoplePage = Schemas['PeopleListResponse'];
export type Session = Schemas['SessionResponse'];
export type SessionDetail = Schemas['SessionDetailResponse'];
export type SessionPage = Schemas['SessionListResponse'];
export type IngestedSession = Schemas['IngestSessionResponse'];
export type BuyingIntent = NonNullable<Session['buyingIntent']>;
export type OverallIntent = Person['overallIntent'];
export type Transcript = Schemas['TranscriptResponse'];
export type TranscriptEntryInput = Schemas['TranscriptEntryInput'];

export type Campaign = Schemas['CampaignResponse'];
export type CampaignPage = Schemas['CampaignListResponse'];
export type CampaignEngagement = Schemas['CampaignEngagementResponse'];
export type Link = Schemas['CustomLinkResponse'];
export type LinkPage = Schemas['CustomLinkListResponse'];
export type LinkUpdate = Schemas['UpdateLinkResponse'];
export type BulkActionAnswer = Schemas['BulkActionResponse'];
export type LinkEngagement = Schemas['LinkEngagementResponse'];
export type SessionReferencePage = Schemas['SessionReferenceListResponse'];
export type Funnel = Schemas['FunnelResponse'];
export type Job = Schemas['JobResponse'];
export type JobPage = Schemas['JobListResponse'];
export type JobEnvelope = Schemas['JobEnvelopeResponse'];
export type JobItemPage = Schemas['JobItemListResponse'];

export type EventInput = Schemas['EventInput'];
export type EventType = EventInput['type'];
export type EventsAnswer = Schemas['EventsResponse'];
export type LinkEventPage = Schemas['LinkEventListResponse'];
export type LinkEvent = Schemas['LinkEventResponse'];

export type Export = Schemas['ExportResponse'];
export type Usage = Schemas['UsageResponse'];
export type UsageWindow = Schemas['UsageWindowResponse'];
export type Retention = Schemas['RetentionResponse'];
export type Erasure = Schemas['ErasureResponse'];
export type ErasurePage = Schemas['ErasureListResponse'];
export type SubjectAccess = Schemas['SubjectAccessResponse'];
export type Analytics = Schemas['AnalyticsResponse'];

export type Agent = Schemas['AgentResponse'];
export type Playbook = Schemas['PlaybookResponse'];
export type Section = Schemas['SectionResponse'];
export type AgentLinks = Schemas['AgentLinksResponse'];
export type ChangeInput = Schemas['ChangeInput'];
export type Change = Schemas['ChangeResponse'];
export type SuggestionGroup = Schemas['SuggestionGroupResponse'];
export type SuggestionGroupPage = Schemas['SuggestionGroupListResponse'];
export type Preview = Schemas['PreviewResponse'];
export type Applied = Schemas['ApplyResponse'];
export type PublishJob = Schemas['PublishJobResponse'];

export type WebhookEndpoint = Schemas['WebhookEndpointResponse'];
export type WebhookEndpointWithSecret = Schemas['WebhookEndpointWithSecretResponse'];
export type WebhookEndpointPage = Schemas['WebhookEndpointListResponse'];
export type WebhookDeliveryPage = Schemas['WebhookDeliveryListResponse'];

/** A 422's body, and one entry of its `detail` (FastAPI/pydantic shape). */
export type ValidationErrorAnswer = Schemas['ValidationErrorResponse'];
export type ValidationIssue = Schemas['ValidationIssueDto'];
