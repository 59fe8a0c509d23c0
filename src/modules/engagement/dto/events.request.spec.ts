import type { ExecutionContext } from '@nestjs/common';
import fc from 'fast-check';
import { fastParserOf } from '../../../common/validation/fast-parse.decorator';
import { RequestValidator } from '../../../common/validation/request-validator';
import { EngagementController } from '../engagement.controller';
import { INGESTED_EVENT_TYPES } from '../rules/engagement-rollup';
import { EventsRequest } from './events.request';

/** What the route's validation leaves in req.body through class-transformer and class-validator (a request without text facts never takes the fast path). */
function validatedAsUsual(body: object): { body?: unknown; rejected: boolean } {
  const req = { body, params: {}, query: {}, headers: {} };
  const context = {
    getType: () => 'http',
    getHandler: () => EngagementController.prototype.ingest,
    getClass: () => EngagementController,
    switchToHttp: () => ({ getRequest: () => req }),
  } as unknown as ExecutionContext;
  try {
    new RequestValidator().validate(context);
    return { body: req.body, rejected: false };
  } catch {
    return { rejected: true };
  }
}

const parse = fastParserOf(EventsRequest) as (raw: object) => EventsRequest | undefined;

const uuid = fc
  .uuid()
  .chain((u) => fc.constantFrom(u, u.toUpperCase(), `{${u}}`, `urn:uuid:${u}`, u.replace(/-/g, ''), `${u}x`));
const oddText = fc.oneof(
  fc.string({ maxLength: 3 }),
  fc.string({ unit: 'grapheme', maxLength: 3 }),
  fc.constantFrom('', ' ', '\u00e9', '\ud83d\ude00', '\ufe0f', 'x'.repeat(129)),
);
const oddValue = fc.oneof(fc.constant(null), fc.integer(), fc.boolean(), fc.constant([]), fc.constant({}), oddText);
const isoDate = fc
  .date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
  .map((d) => d.toISOString());
const otherTimestamps = fc.constantFrom(
  '2026-11-22',
  '2026-11-22T10:00:00+02:00',
  '2026-11-22 10:00',
  '2026-02-30T00:00:00Z',
  '2026-11-22T25:00:00Z',
  'yesterday',
  ' 2026-11-22T10:00:00Z',
);
/** An event field: usually a common value, sometimes an edge case, absent, or odd. */
const field = <T, U>(common: fc.Arbitrary<T>, edge: fc.Arbitrary<U>) =>
  fc.oneof(
    { arbitrary: common, weight: 60 },
    { arbitrary: edge, weight: 2 },
    { arbitrary: fc.constant(undefined), weight: 1 },
    { arbitrary: oddValue, weight: 1 },
  );
const event = fc
  .record(
    {
      eventId: field(fc.stringMatching(/^[\x20-\x7e]{1,12}$/), fc.constantFrom('e'.repeat(128), 'e'.repeat(129))),
      type: field(fc.constantFrom(...INGESTED_EVENT_TYPES), fc.constant('click')),
      customLinkId: field(fc.uuid(), uuid),
      slug: field(fc.stringMatching(/^[A-Za-z0-9_-]{0,8}$/), fc.constantFrom('s'.repeat(64), 's'.repeat(65))),
      occurredAt: field(isoDate, otherTimestamps),
      pageViewId: field(fc.stringMatching(/^[\x20-\x7e]{0,10}$/), fc.constantFrom('p'.repeat(128), 'p'.repeat(129))),
      visitorId: field(fc.stringMatching(/^[\x20-\x7e]{0,10}$/), fc.constantFrom('v'.repeat(128), 'v'.repeat(129))),
      sessionId: field(fc.uuid(), uuid),
      userAgent: field(
        fc.constantFrom('Mozilla/5.0', 'Googlebot/2.1', ''),
        fc.constantFrom('u'.repeat(2000), 'u'.repeat(2001)),
      ),
      bot: field(fc.boolean(), fc.constant(null)),
      extra: field(fc.string(), fc.constant(null)),
    },
    { requiredKeys: [] },
  )
  .map((e) => Object.fromEntries(Object.entries(e).filter(([, v]) => v !== undefined)));
const body = fc.oneof(
  { arbitrary: fc.record({ events: fc.array(event, { minLength: 1, maxLength: 4 }) }), weight: 8 },
  { arbitrary: fc.record({ events: oddValue }), weight: 1 },
  { arbitrary: fc.record({ events: fc.array(event, { maxLength: 1 }), other: fc.string() }), weight: 1 },
);

describe('EventsRequest fast parser', () => {
  it('gives exactly what class-transformer and class-validator give, for every batch it accepts', () => {
    let accepted = 0;
    fc.assert(
      fc.property(body, (raw) => {
        const fast = parse(structuredClone(raw));
        if (fast === undefined) return;
        accepted++;
        const usual = validatedAsUsual(structuredClone(raw));
        expect(usual.rejected).toBe(false);
        expect(fast).toStrictEqual(usual.body);
      }),
      { numRuns: 3000 },
    );
    // The property says nothing if the parser accepts nothing.
    expect(accepted).toBeGreaterThan(300);
  });

  it("accepts the tracker's common batch, canonical ids and Dates in place", () => {
    const raw = {
      events: [
        {
          eventId: 'evt-1',
          type: 'page_view',
          customLinkId: '0192F0C5-8A4E-7C3B-9D2A-5E6F7A8B9C0D',
          occurredAt: '2026-11-22T10:00:00.000Z',
          pageViewId: 'pv-1',
          visitorId: 'v-1',
          sessionId: '{0192f0c5-8a4e-7c3b-9d2a-5e6f7a8b9c0e}',
        },
        {
          eventId: 'evt-2',
          type: 'open',
          customLinkId: '0192f0c58a4e7c3b9d2a5e6f7a8b9c0d',
          occurredAt: '2026-11-22',
          bot: true,
          userAgent: 'Googlebot/2.1',
          unknown: 1,
        },
      ],
    };
    const parsed = parse(structuredClone(raw));
    expect(parsed).toStrictEqual(validatedAsUsual(structuredClone(raw)).body);
    expect(parsed?.events[0]).toMatchObject({
      customLinkId: '0192f0c5-8a4e-7c3b-9d2a-5e6f7a8b9c0d',
      sessionId: '0192f0c5-8a4e-7c3b-9d2a-5e6f7a8b9c0e',
      occurredAt: new Date('2026-11-22T10:00:00.000Z'),
    });
  });

  it('leaves to class-validator what it does not plainly accept: nulls, slugs alone, non-ASCII text, 1,001 events', () => {
    const base = {
      eventId: 'e',
      type: 'open',
      customLinkId: '0192f0c5-8a4e-7c3b-9d2a-5e6f7a8b9c0d',
      occurredAt: '2026-11-22T10:00:00Z',
    };
    for (const odd of [
      { pageViewId: null },
      { customLinkId: undefined, slug: 'abc' },
      { visitorId: 'caf\u00e9' },
      { bot: null },
    ]) {
      expect(parse({ events: [{ ...base, ...odd }] })).toBeUndefined();
    }
    expect(parse({ events: Array.from({ length: 1001 }, () => base) })).toBeUndefined();
  });
});
