import type { Server } from 'node:http';
import request from 'supertest';
import { v4 as uuidv4 } from 'uuid';

/** A complete, valid ingestion body (docs/api.md §13.1); `overrides` replace top-level fields. */
export function sessionBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    displayId: 'S-1001',
    startTime: '2026-11-20T10:00:00.000Z',
    endTime: '2026-11-20T10:30:00.000Z',
    sessionType: 'ai_demo',
    email: 'ada@acme.com',
    name: 'Ada Lovelace',
    business: 'Acme',
    phone: '+1 555 0100',
    qualificationStatus: 'qualified',
    qualificationReason: 'Budget and timeline confirmed.',
    qualificationRationale: 'Confirmed budget and a Q1 timeline.',
    qualificationSource: 'automatic',
    qualificationAssessedAt: '2026-11-20T10:31:00.000Z',
    qualificationRubricVersionId: 'rubric-v3',
    qualificationStage: 'evaluation',
    buyingIntent: 'high',
    bookedStatus: 'booked',
    sessionStatus: 'completed',
    sentiment: 'positive',
    engagementLevel: 'high',
    primaryIntent: 'evaluate_product',
    summaryMarkdown: '**Ada** evaluated the product.',
    budgetRange: '$50k-$100k',
    buyingTimeline: 'Q1',
    decisionMakerRole: 'VP Engineering',
    isDecisionMaker: true,
    confidenceScore: 0.82,
    nextSteps: ['Send pricing', 'Book technical call'],
    summaryBullets: ['Interested in SSO', 'Asked about pricing'],
    audioDurationSeconds: 1800,
    timelineEvents: [
      {
        milestoneType: 'intro',
        description: 'Introductions',
        timestampOffsetS: 0,
        featuresMentioned: [],
        sequenceOrder: 1,
      },
      {
        milestoneType: 'demo',
        description: 'Showed SSO',
        timestampOffsetS: 300,
        featuresMentioned: ['SSO'],
        sequenceOrder: 2,
      },
    ],
    topics: [{ topic: 'pricing', interestLevel: 'high', timeDiscussedS: 240, outcome: 'follow_up' }],
    objections: [
      {
        objectionType: 'price',
        description: 'Too expensive',
        severity: 'medium',
        handled: true,
        resolutionNotes: 'Discount offered',
        timestampOffsetS: 900,
      },
    ],
    tracking: {
      utmSource: 'linkedin',
      utmMedium: 'social',
      utmCampaign: 'q4',
      utmTerm: null,
      utmContent: null,
      referrerUrl: 'https://www.linkedin.com/',
      landingPageUrl: 'https://demo.example.com/',
      device: 'desktop',
      browser: 'Chrome',
      os: 'macOS',
      geoCountry: 'US',
      geoRegion: 'CA',
      geoCity: 'San Francisco',
    },
    environment: 'production',
    analysisStatus: 'analyzed',
    ...overrides,
  };
}

/** PUT /api/v1/ingest/sessions/{id} with `key`; returns the supertest response. */
export function ingest(server: Server, key: string, id: string, body: unknown) {
  return request(server)
    .put(`/api/v1/ingest/sessions/${id}`)
    .set('Authorization', `Bearer ${key}`)
    .send(body as object);
}

export function newSessionId(): string {
  return uuidv4();
}
