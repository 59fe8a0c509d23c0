import type { IsoText, Narrowed, OuterJoined, Row } from './rows';

/**
 * The row types as the compiler checks them (`npm run typecheck` reads this file): each
 * `@ts-expect-error` line must fail to compile, or the type-check fails. The runtime part only
 * states what the types allow.
 */

type Link = Row<'custom_links'>;

// A column the table does not have (a renamed or dropped one) cannot be picked or narrowed.
// @ts-expect-error custom_links has no column `title`
type PickedMissing = Pick<Link, 'id' | 'title'>;
// @ts-expect-error custom_links has no column `title`
type NarrowedMissing = Narrowed<Link, { title: string }>;
// A text column narrows only to strings; a jsonb column to any shape.
// @ts-expect-error stage is text
type NarrowedWrongly = Narrowed<Link, { stage: number }>;
type Narrowings = Narrowed<Link, { stage: 'not_opened' | 'opened'; bot_opens: { human?: number } }>;

describe('row types', () => {
  it('type columns as pg returns them, narrowed where the code says so', () => {
    const link: Pick<Narrowings, 'id' | 'stage' | 'bot_open_count' | 'created_at' | 'bot_opens'> = {
      id: '0190f5e4-0000-7000-8000-000000000000',
      stage: 'opened',
      bot_open_count: 0,
      created_at: new Date(0),
      bot_opens: { human: 1 },
    };
    const count: Pick<Row<'session_counts'>, 'sessions'> = { sessions: '12' }; // int8: a string
    const listed: IsoText<Pick<Link, 'created_at' | 'last_activity_at'>, 'created_at' | 'last_activity_at'> = {
      created_at: '1970-01-01T00:00:00.000Z',
      last_activity_at: null,
    };
    const joined: OuterJoined<Pick<Row<'people'>, 'intent_score'>> = { intent_score: null };
    expect([link.stage, count.sessions, listed.created_at, joined.intent_score]).toEqual([
      'opened',
      '12',
      '1970-01-01T00:00:00.000Z',
      null,
    ]);
  });
});

export type { NarrowedMissing, NarrowedWrongly, PickedMissing };
