import { createHash } from 'node:crypto';
import { canonicalJson } from '../../../common/canonical-json';
import { emailKeyOf } from '../../../common/privacy/data-subject';
import type {
  IngestSessionRequest,
  ObjectionInput,
  TimelineEventInput,
  TopicInput,
  TrackingInput,
  TranscriptInput,
} from '../dto/ingest-session.request';

export const TRACKING_FIELDS = [
  'utmSource',
  'utmMedium',
  'utmCampaign',
  'utmTerm',
  'utmContent',
  'referrerUrl',
  'landingPageUrl',
  'device',
  'browser',
  'os',
  'geoCountry',
  'geoRegion',
  'geoCity',
] as const;
export type Tracking = Record<(typeof TRACKING_FIELDS)[number], string | null>;

export interface TimelineEvent {
  milestoneType: string | null;
  description: string | null;
  timestampOffsetS: number | null;
  featuresMentioned: string[];
  sequenceOrder: number | null;
}
export interface Topic {
  topic: string | null;
  interestLevel: string | null;
  timeDiscussedS: number | null;
  outcome: string | null;
}
export interface Objection {
  objectionType: string | null;
  description: string | null;
  severity: string | null;
  handled: boolean | null;
  resolutionNotes: string | null;
  timestampOffsetS: number | null;
}

/** The docs/api.md §2.2 fields only the detail shows, stored together. */
export interface SessionDetails {
  qualificationReason: string | null;
  qualificationStage: string | null;
  budgetRange: string | null;
  buyingTimeline: string | null;
  decisionMakerRole: string | null;
  isDecisionMaker: boolean | null;
  confidenceScore: number | null;
  nextSteps: string[];
  summaryBullets: string[];
  audioDurationSeconds: number | null;
  timelineEvents: TimelineEvent[];
  topics: Topic[];
  objections: Objection[];
}

/** One session as stored: the ingested analysis, normalised. */
export interface SessionRecord {
  environment: 'production' | 'staging';
  analysisStatus: 'pending' | 'analyzed';
  displayId: string | null;
  startTime: Date;
  endTime: Date | null;
  sessionType: string | null;
  email: string | null;
  emailKey: string | null;
  name: string | null;
  business: string | null;
  phone: string | null;
  qualificationStatus: string | null;
  qualificationRationale: string | null;
  qualificationSource: string | null;
  qualificationAssessedAt: Date | null;
  qualificationRubricVersionId: string | null;
  buyingIntent: string | null;
  bookedStatus: string | null;
  sessionStatus: string | null;
  sentiment: string | null;
  engagementLevel: string | null;
  primaryIntent: string | null;
  summaryMarkdown: string | null;
  utmSource: string | null;
  device: string | null;
  geoCountry: string | null;
  tracking: Tracking;
  details: SessionDetails;
  customLinkId: string | null;
  customLinkCampaignId: string | null;
}

export interface TranscriptEntry {
  speaker: string;
  text: string;
  timestamp: string | null;
  sequenceNumber: number;
}

export interface SessionIngestion {
  record: SessionRecord;
  /** null: keep the stored transcript. */
  transcript: TranscriptEntry[] | null;
  fingerprint: string;
}

const orNull = <T>(value: T | null | undefined): T | null => value ?? null;

function trackingOf(body: IngestSessionRequest): Tracking {
  const given: TrackingInput = body.tracking ?? {};
  const tracking = Object.fromEntries(TRACKING_FIELDS.map((field) => [field, orNull(given[field])])) as Tracking;
  // Top-level utmSource, device and geoCountry mirror tracking; tracking wins (docs/api.md §13.1).
  tracking.utmSource ??= orNull(body.utmSource);
  tracking.device ??= orNull(body.device);
  tracking.geoCountry ??= orNull(body.geoCountry);
  return tracking;
}

const timelineEventOf = (e: TimelineEventInput): TimelineEvent => ({
  milestoneType: orNull(e.milestoneType),
  description: orNull(e.description),
  timestampOffsetS: orNull(e.timestampOffsetS),
  featuresMentioned: e.featuresMentioned ?? [],
  sequenceOrder: orNull(e.sequenceOrder),
});

const topicOf = (t: TopicInput): Topic => ({
  topic: orNull(t.topic),
  interestLevel: orNull(t.interestLevel),
  timeDiscussedS: orNull(t.timeDiscussedS),
  outcome: orNull(t.outcome),
});

const objectionOf = (o: ObjectionInput): Objection => ({
  objectionType: orNull(o.objectionType),
  description: orNull(o.description),
  severity: orNull(o.severity),
  handled: orNull(o.handled),
  resolutionNotes: orNull(o.resolutionNotes),
  timestampOffsetS: orNull(o.timestampOffsetS),
});

/** Entries by sequenceNumber; equal numbers keep the order they were sent in. */
function transcriptOf(transcript: TranscriptInput): TranscriptEntry[] {
  return transcript.entries
    .map((entry) => ({
      speaker: entry.speaker,
      text: entry.text,
      timestamp: entry.timestamp?.toISOString() ?? null,
      sequenceNumber: entry.sequenceNumber,
    }))
    .sort((a, b) => a.sequenceNumber - b.sequenceNumber);
}

/** Normalises a validated ingestion body (PUT replaces: absent is null) and fingerprints it. */
export function toSessionIngestion(body: IngestSessionRequest): SessionIngestion {
  const email = body.email?.trim() || null;
  const tracking = trackingOf(body);
  const record: SessionRecord = {
    environment: body.environment ?? 'production',
    analysisStatus: body.analysisStatus ?? 'analyzed',
    displayId: orNull(body.displayId),
    startTime: body.startTime,
    endTime: orNull(body.endTime),
    sessionType: orNull(body.sessionType),
    email,
    emailKey: email === null ? null : emailKeyOf(email),
    name: orNull(body.name),
    business: orNull(body.business),
    phone: orNull(body.phone),
    qualificationStatus: orNull(body.qualificationStatus),
    qualificationRationale: orNull(body.qualificationRationale),
    qualificationSource: orNull(body.qualificationSource),
    qualificationAssessedAt: orNull(body.qualificationAssessedAt),
    qualificationRubricVersionId: orNull(body.qualificationRubricVersionId),
    buyingIntent: orNull(body.buyingIntent),
    bookedStatus: orNull(body.bookedStatus),
    sessionStatus: orNull(body.sessionStatus),
    sentiment: orNull(body.sentiment),
    engagementLevel: orNull(body.engagementLevel),
    primaryIntent: orNull(body.primaryIntent),
    summaryMarkdown: orNull(body.summaryMarkdown),
    utmSource: tracking.utmSource,
    device: tracking.device,
    geoCountry: tracking.geoCountry,
    tracking,
    details: {
      qualificationReason: orNull(body.qualificationReason),
      qualificationStage: orNull(body.qualificationStage),
      budgetRange: orNull(body.budgetRange),
      buyingTimeline: orNull(body.buyingTimeline),
      decisionMakerRole: orNull(body.decisionMakerRole),
      isDecisionMaker: orNull(body.isDecisionMaker),
      confidenceScore: orNull(body.confidenceScore),
      nextSteps: body.nextSteps ?? [],
      summaryBullets: body.summaryBullets ?? [],
      audioDurationSeconds: orNull(body.audioDurationSeconds),
      timelineEvents: (body.timelineEvents ?? []).map(timelineEventOf),
      topics: (body.topics ?? []).map(topicOf),
      objections: (body.objections ?? []).map(objectionOf),
    },
    customLinkId: body.customLinkId?.toLowerCase() ?? null,
    customLinkCampaignId: body.customLinkCampaignId?.toLowerCase() ?? null,
  };
  const transcript = body.transcript ? transcriptOf(body.transcript) : null;
  const fingerprint = createHash('sha256').update(canonicalJson({ record, transcript })).digest('hex');
  return { record, transcript, fingerprint };
}

export function isVisible(record: Pick<SessionRecord, 'environment' | 'analysisStatus'>): boolean {
  return record.environment === 'production' && record.analysisStatus === 'analyzed';
}
