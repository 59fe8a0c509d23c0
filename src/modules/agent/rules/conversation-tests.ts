import type { Section } from '../../playbook';

/** A deterministic check run against a version's sections (docs/api.md §14.6), case-insensitive. */
export interface ConversationTest {
  name: string;
  sectionKey: string | null;
  mustContain: string[];
  mustNotContain: string[];
}

/** The names of the tests the sections fail; a test on a section that does not exist fails. */
export function failedTests(tests: readonly ConversationTest[], sections: readonly Section[]): string[] {
  return tests
    .filter((test) => {
      const scope = test.sectionKey === null ? sections : sections.filter((s) => s.key === test.sectionKey);
      if (test.sectionKey !== null && scope.length === 0) return true;
      const text = scope
        .map((s) => `${s.title}\n${s.content}`)
        .join('\n')
        .toLowerCase();
      return (
        test.mustContain.some((phrase) => !text.includes(phrase.toLowerCase())) ||
        test.mustNotContain.some((phrase) => text.includes(phrase.toLowerCase()))
      );
    })
    .map((test) => test.name);
}
