import type { IngestSessionRequest } from '../dto/ingest-session.request';
import { TRACKING_FIELDS, isVisible, toSessionIngestion } from './session-record';

/**
 * docs/api.md §13.1 and DECISIONS "Ingestion body", "Re-ingestion is a replacement": absent is null,
 * defaults production / analyzed, top-level utmSource/device/geoCountry mirror tracking with
 * tracking winning, transcript by sequenceNumber, a fingerprint of the normalised input.
 */
const START = new Date('2026-06-01T10:00:00.000Z');
const body = (fields: Partial<IngestSessionRequest> = {}): IngestSessionRequest =>
  ({ startTime: START, ...fields }) as IngestSessionRequest;

describe('toSessionIngestion: normalisation', () => {
  it('defaults environment to production and analysisStatus to analyzed', () => {
    const { record } = toSessionIngestion(body());
    expect(record.environment).toBe('production');
    expect(record.analysisStatus).toBe('analyzed');
    const given = toSessionIngestion(body({ environment: 'staging', analysisStatus: 'pending' })).record;
    expect(given.environment).toBe('staging');
    expect(given.analysisStatus).toBe('pending');
  });

  it('turns every absent field into null and every absent list into []', () => {
    const { record, transcript } = toSessionIngestion(body());
    expect(record.startTime).toEqual(START);
    for (const field of [
      'displayId',
      'endTime',
      'sessionType',
      'email',
      'emailKey',
      'name',
      'business',
      'phone',
      'qualificationStatus',
      'qualificationRationale',
      'qualificationSource',
      'qualificationAssessedAt',
      'qualificationRubricVersionId',
      'buyingIntent',
      'bookedStatus',
      'sessionStatus',
      'sentiment',
      'engagementLevel',
      'primaryIntent',
      'summaryMarkdown',
      'utmSource',
      'device',
      'geoCountry',
      'customLinkId',
      'customLinkCampaignId',
    ] as const) {
      expect([field, record[field]]).toEqual([field, null]);
    }
    for (const field of TRACKING_FIELDS) expect([field, record.tracking[field]]).toEqual([field, null]);
    expect(record.details).toEqual({
      qualificationReason: null,
      qualificationStage: null,
      budgetRange: null,
      buyingTimeline: null,
      decisionMakerRole: null,
      isDecisionMaker: null,
      confidenceScore: null,
      nextSteps: [],
      summaryBullets: [],
      audioDurationSeconds: null,
      timelineEvents: [],
      topics: [],
      objections: [],
    });
    expect(transcript).toBeNull();
  });

  it('treats explicit nulls like absent fields', () => {
    const explicit = body({
      name: null,
      tracking: null,
      nextSteps: null,
      timelineEvents: null,
      transcript: null,
      environment: null,
      analysisStatus: null,
    });
    const absent = toSessionIngestion(body());
    const withNulls = toSessionIngestion(explicit);
    expect(withNulls.record).toEqual(absent.record);
    expect(withNulls.transcript).toBeNull();
    expect(withNulls.fingerprint).toBe(absent.fingerprint);
  });

  it('keeps the given fields', () => {
    const end = new Date('2026-06-01T10:45:00.000Z');
    const { record } = toSessionIngestion(
      body({
        displayId: 'S-1',
        endTime: end,
        name: 'Ann Lee',
        business: 'Acme',
        phone: '+1 555 0100',
        qualificationStatus: 'qualified',
        qualificationSource: 'manual',
        buyingIntent: 'high',
        bookedStatus: 'booked',
        summaryMarkdown: '# Call',
        isDecisionMaker: false,
        confidenceScore: 0,
        audioDurationSeconds: 0,
        nextSteps: ['send deck'],
      }),
    );
    expect(record).toMatchObject({
      displayId: 'S-1',
      endTime: end,
      name: 'Ann Lee',
      business: 'Acme',
      phone: '+1 555 0100',
      qualificationStatus: 'qualified',
      qualificationSource: 'manual',
      buyingIntent: 'high',
      bookedStatus: 'booked',
      summaryMarkdown: '# Call',
    });
    // false and 0 are values, not "unknown".
    expect(record.details.isDecisionMaker).toBe(false);
    expect(record.details.confidenceScore).toBe(0);
    expect(record.details.audioDurationSeconds).toBe(0);
    expect(record.details.nextSteps).toEqual(['send deck']);
  });

  it('fills the missing fields of nested objects with null', () => {
    const { record } = toSessionIngestion(
      body({
        timelineEvents: [{ milestoneType: 'demo' }],
        topics: [{ topic: 'pricing' }],
        objections: [{ objectionType: 'price', handled: false }],
      }),
    );
    expect(record.details.timelineEvents).toEqual([
      { milestoneType: 'demo', description: null, timestampOffsetS: null, featuresMentioned: [], sequenceOrder: null },
    ]);
    expect(record.details.topics).toEqual([
      { topic: 'pricing', interestLevel: null, timeDiscussedS: null, outcome: null },
    ]);
    expect(record.details.objections).toEqual([
      {
        objectionType: 'price',
        description: null,
        severity: null,
        handled: false,
        resolutionNotes: null,
        timestampOffsetS: null,
      },
    ]);
  });

  it('keys the person by the lower-cased email; an empty email is no email', () => {
    const { record } = toSessionIngestion(body({ email: 'Ann.Lee@Acme.COM' }));
    expect(record.email).toBe('Ann.Lee@Acme.COM');
    expect(record.emailKey).toBe('ann.lee@acme.com');
    const empty = toSessionIngestion(body({ email: '' })).record;
    expect(empty.email).toBeNull();
    expect(empty.emailKey).toBeNull();
    const blank = toSessionIngestion(body({ email: '   ' })).record;
    expect(blank.emailKey).toBeNull();
  });

  it('trims the email before keying it', () => {
    expect(toSessionIngestion(body({ email: '  Ann@Acme.com ' })).record.emailKey).toBe('ann@acme.com');
  });

  it('lower-cases the link ids (UUIDs in any case are one id)', () => {
    const { record } = toSessionIngestion(
      body({
        customLinkId: '0190B3B0-7A1C-7CC0-8000-00000000000A',
        customLinkCampaignId: '0190B3B0-7A1C-7CC0-8000-00000000000B',
      }),
    );
    expect(record.customLinkId).toBe('0190b3b0-7a1c-7cc0-8000-00000000000a');
    expect(record.customLinkCampaignId).toBe('0190b3b0-7a1c-7cc0-8000-00000000000b');
  });
});

describe('toSessionIngestion: tracking mirror', () => {
  it('copies top-level utmSource, device and geoCountry into tracking when tracking lacks them', () => {
    const { record } = toSessionIngestion(body({ utmSource: 'google', device: 'mobile', geoCountry: 'DE' }));
    expect(record.tracking.utmSource).toBe('google');
    expect(record.tracking.device).toBe('mobile');
    expect(record.tracking.geoCountry).toBe('DE');
    expect(record.utmSource).toBe('google');
    expect(record.device).toBe('mobile');
    expect(record.geoCountry).toBe('DE');
  });

  it('copies tracking into the top-level fields when only tracking has them', () => {
    const { record } = toSessionIngestion(
      body({
        tracking: { utmSource: 'linkedin', device: 'desktop', geoCountry: 'FR', geoCity: 'Paris', browser: 'Firefox' },
      }),
    );
    expect(record.utmSource).toBe('linkedin');
    expect(record.device).toBe('desktop');
    expect(record.geoCountry).toBe('FR');
    expect(record.tracking).toMatchObject({
      utmSource: 'linkedin',
      device: 'desktop',
      geoCountry: 'FR',
      geoCity: 'Paris',
      browser: 'Firefox',
      utmMedium: null,
      os: null,
    });
  });

  it('lets tracking win when both are given', () => {
    const { record } = toSessionIngestion(
      body({
        utmSource: 'google',
        device: 'mobile',
        geoCountry: 'DE',
        tracking: { utmSource: 'linkedin', device: 'desktop', geoCountry: 'FR' },
      }),
    );
    expect([record.utmSource, record.device, record.geoCountry]).toEqual(['linkedin', 'desktop', 'FR']);
    expect([record.tracking.utmSource, record.tracking.device, record.tracking.geoCountry]).toEqual([
      'linkedin',
      'desktop',
      'FR',
    ]);
  });

  it('mirrors field by field: a tracking object without one field still takes that field from the top level', () => {
    const { record } = toSessionIngestion(
      body({ utmSource: 'google', device: 'mobile', tracking: { utmSource: 'linkedin', geoCountry: 'FR' } }),
    );
    expect(record.utmSource).toBe('linkedin');
    expect(record.device).toBe('mobile');
    expect(record.tracking.device).toBe('mobile');
    expect(record.geoCountry).toBe('FR');
  });

  it('gives the same record for the same data sent top-level or in tracking', () => {
    const top = toSessionIngestion(body({ utmSource: 'google', device: 'mobile', geoCountry: 'DE' }));
    const nested = toSessionIngestion(body({ tracking: { utmSource: 'google', device: 'mobile', geoCountry: 'DE' } }));
    expect(nested.record).toEqual(top.record);
  });
});

describe('toSessionIngestion: transcript', () => {
  it('is null when left out, so the stored transcript is kept', () => {
    expect(toSessionIngestion(body()).transcript).toBeNull();
  });

  it('is an empty list when given without entries (replaces the stored one)', () => {
    expect(toSessionIngestion(body({ transcript: { entries: [] } })).transcript).toEqual([]);
  });

  it('orders entries by sequenceNumber, keeping input order for equal numbers', () => {
    const { transcript } = toSessionIngestion(
      body({
        transcript: {
          entries: [
            { speaker: 'agent', text: 'c', sequenceNumber: 3 },
            { speaker: 'visitor', text: 'a1', sequenceNumber: 1 },
            { speaker: 'agent', text: 'b1', sequenceNumber: 2 },
            { speaker: 'visitor', text: 'a2', sequenceNumber: 1 },
            { speaker: 'visitor', text: 'b2', sequenceNumber: 2 },
            { speaker: 'agent', text: 'a3', sequenceNumber: 1 },
            { speaker: 'agent', text: 'z', sequenceNumber: 10 },
            { speaker: 'agent', text: 'zero', sequenceNumber: 0 },
          ],
        },
      }),
    );
    // Numeric, not lexicographic, order (10 after 3).
    expect(transcript?.map((entry) => entry.text)).toEqual(['zero', 'a1', 'a2', 'a3', 'b1', 'b2', 'c', 'z']);
  });

  it('stores entry timestamps as ISO strings and null without one', () => {
    const { transcript } = toSessionIngestion(
      body({
        transcript: {
          entries: [
            { speaker: 'agent', text: 'hi', sequenceNumber: 0, timestamp: new Date('2026-06-01T10:00:05.250Z') },
            { speaker: 'visitor', text: 'hello', sequenceNumber: 1 },
          ],
        },
      }),
    );
    expect(transcript).toEqual([
      { speaker: 'agent', text: 'hi', timestamp: '2026-06-01T10:00:05.250Z', sequenceNumber: 0 },
      { speaker: 'visitor', text: 'hello', timestamp: null, sequenceNumber: 1 },
    ]);
  });
});

describe('toSessionIngestion: fingerprint', () => {
  const full = (): IngestSessionRequest =>
    body({
      endTime: new Date('2026-06-01T10:30:00.000Z'),
      email: 'ann@acme.com',
      name: 'Ann',
      buyingIntent: 'medium',
      nextSteps: ['call back'],
      tracking: { utmSource: 'google', geoCity: 'Berlin' },
      topics: [{ topic: 'pricing', interestLevel: 'high' }],
      transcript: { entries: [{ speaker: 'agent', text: 'hi', sequenceNumber: 0 }] },
    });

  it('is a lower-case hex SHA-256', () => {
    expect(toSessionIngestion(full()).fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is equal for equal bodies, whatever the key order', () => {
    const a = full();
    const reordered = Object.fromEntries(Object.entries(full()).reverse()) as unknown as IngestSessionRequest;
    expect(toSessionIngestion(a).fingerprint).toBe(toSessionIngestion(full()).fingerprint);
    expect(toSessionIngestion(reordered).fingerprint).toBe(toSessionIngestion(a).fingerprint);
  });

  it('differs when any field differs', () => {
    const base = toSessionIngestion(full()).fingerprint;
    const variants: Partial<IngestSessionRequest>[] = [
      { startTime: new Date('2026-06-01T10:00:00.001Z') },
      { endTime: null },
      { email: 'bob@acme.com' },
      { name: 'Anne' },
      { buyingIntent: 'high' },
      { nextSteps: ['call back', 'send deck'] },
      { tracking: { utmSource: 'bing', geoCity: 'Berlin' } },
      { tracking: { utmSource: 'google', geoCity: 'Munich' } },
      { topics: [{ topic: 'pricing', interestLevel: 'low' }] },
      { environment: 'staging' },
      { analysisStatus: 'pending' },
      { transcript: { entries: [{ speaker: 'agent', text: 'hi!', sequenceNumber: 0 }] } },
      { transcript: null },
      { summaryMarkdown: 'new' },
    ];
    const seen = new Set<string>([base]);
    for (const variant of variants) {
      const fingerprint = toSessionIngestion({ ...full(), ...variant } as IngestSessionRequest).fingerprint;
      expect([variant, fingerprint === base]).toEqual([variant, false]);
      seen.add(fingerprint);
    }
    expect(seen.size).toBe(variants.length + 1);
  });

  it('is equal for bodies that normalise alike', () => {
    // Explicit defaults, and the same transcript sent in another order.
    const plain = toSessionIngestion(
      body({
        transcript: {
          entries: [
            { speaker: 'a', text: '1', sequenceNumber: 1 },
            { speaker: 'b', text: '2', sequenceNumber: 2 },
          ],
        },
      }),
    );
    const explicit = toSessionIngestion(
      body({
        environment: 'production',
        analysisStatus: 'analyzed',
        transcript: {
          entries: [
            { speaker: 'b', text: '2', sequenceNumber: 2 },
            { speaker: 'a', text: '1', sequenceNumber: 1 },
          ],
        },
      }),
    );
    expect(explicit.fingerprint).toBe(plain.fingerprint);
  });

  it('tells apart an empty transcript from none', () => {
    expect(toSessionIngestion(body({ transcript: { entries: [] } })).fingerprint).not.toBe(
      toSessionIngestion(body()).fingerprint,
    );
  });
});

describe('isVisible', () => {
  it('is true only for analyzed production sessions', () => {
    expect(isVisible({ environment: 'production', analysisStatus: 'analyzed' })).toBe(true);
    expect(isVisible({ environment: 'production', analysisStatus: 'pending' })).toBe(false);
    expect(isVisible({ environment: 'staging', analysisStatus: 'analyzed' })).toBe(false);
    expect(isVisible({ environment: 'staging', analysisStatus: 'pending' })).toBe(false);
  });
});
