import { createHash } from 'node:crypto';
import { applyChanges, sameSections, sectionsEtag, type Change, type Section } from './sections';

const change = (overrides: Partial<Change>): Change => ({
  changeId: 'c',
  sectionKey: 'intro',
  operation: 'replace',
  title: null,
  content: null,
  rationale: null,
  ...overrides,
});
const base: Section[] = [
  { key: 'intro', title: 'Intro', content: 'Hello' },
  { key: 'pricing', title: 'Pricing', content: 'From $99' },
];

describe('sections etag (docs/api.md §14.1)', () => {
  it('is the lower-case hex SHA-256 of the canonical JSON (keys sorted)', () => {
    const expected = createHash('sha256').update('[{"content":"Hello","key":"intro","title":"Intro"}]').digest('hex');
    expect(sectionsEtag([{ title: 'Intro', key: 'intro', content: 'Hello' }])).toBe(expected);
    expect(sectionsEtag([])).toBe(createHash('sha256').update('[]').digest('hex'));
    expect(sectionsEtag(base)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('applyChanges', () => {
  it('replaces content and keeps what the change leaves out', () => {
    expect(applyChanges(base, [change({ content: 'Hi there' })])).toEqual([
      { key: 'intro', title: 'Intro', content: 'Hi there' },
      base[1],
    ]);
    expect(applyChanges(base, [change({ title: 'Welcome' })])[0]).toEqual({
      key: 'intro',
      title: 'Welcome',
      content: 'Hello',
    });
  });

  it('adds a missing section at the end; add on an existing key replaces it in place', () => {
    expect(applyChanges(base, [change({ sectionKey: 'faq', operation: 'add', title: 'FAQ', content: 'Q&A' })])).toEqual(
      [...base, { key: 'faq', title: 'FAQ', content: 'Q&A' }],
    );
    expect(applyChanges(base, [change({ sectionKey: 'pricing', operation: 'add', content: 'From $79' })])[1]).toEqual({
      key: 'pricing',
      title: 'Pricing',
      content: 'From $79',
    });
  });

  it('removes a section; removing a missing one changes nothing', () => {
    expect(applyChanges(base, [change({ operation: 'remove' })])).toEqual([base[1]]);
    expect(sameSections(applyChanges(base, [change({ sectionKey: 'nope', operation: 'remove' })]), base)).toBe(true);
  });

  it('applies in the given order: the later change to a section wins', () => {
    const result = applyChanges(base, [
      change({ changeId: 'a', content: 'first' }),
      change({ changeId: 'b', content: 'second' }),
    ]);
    expect(result[0].content).toBe('second');
  });

  it('never mutates its input', () => {
    const copy = structuredClone(base);
    applyChanges(base, [change({ content: 'x' }), change({ operation: 'remove', sectionKey: 'pricing' })]);
    expect(base).toEqual(copy);
  });
});
