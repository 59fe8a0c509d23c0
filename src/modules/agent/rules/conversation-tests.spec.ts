import type { Section } from '../../playbook';
import { failedTests } from './conversation-tests';

const base: Section[] = [
  { key: 'intro', title: 'Intro', content: 'Hello' },
  { key: 'pricing', title: 'Pricing', content: 'From $99' },
];

describe('conversation tests', () => {
  const tests = (overrides: object) => [
    { name: 't', sectionKey: null, mustContain: [], mustNotContain: [], ...overrides },
  ];

  it('passes when every phrase is present, case-insensitively, and no forbidden one is', () => {
    expect(failedTests(tests({ mustContain: ['HELLO', '$99'] }), base)).toEqual([]);
    expect(failedTests(tests({ mustNotContain: ['guarantee'] }), base)).toEqual([]);
  });

  it('names the tests that fail', () => {
    expect(
      failedTests(
        [
          ...tests({ name: 'a', mustContain: ['free trial'] }),
          ...tests({ name: 'b', mustNotContain: ['hello'] }),
          ...tests({ name: 'c' }),
        ],
        base,
      ),
    ).toEqual(['a', 'b']);
  });

  it('scopes a test to its section; a missing section fails it', () => {
    expect(failedTests(tests({ sectionKey: 'pricing', mustContain: ['hello'] }), base)).toEqual(['t']);
    expect(failedTests(tests({ sectionKey: 'intro', mustContain: ['hello'] }), base)).toEqual([]);
    expect(failedTests(tests({ sectionKey: 'faq' }), base)).toEqual(['t']);
  });
});
