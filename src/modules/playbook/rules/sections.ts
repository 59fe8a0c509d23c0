import { createHash } from 'node:crypto';
import { canonicalJson } from '../../../common/canonical-json';

/** A playbook section (docs/api.md §14.1). */
export interface Section {
  key: string;
  title: string;
  content: string;
}

export const CHANGE_OPERATIONS = ['replace', 'add', 'remove'] as const;
export type ChangeOperation = (typeof CHANGE_OPERATIONS)[number];

/** A stored suggestion: applied exactly as stored (after any preview edits of its content). */
export interface Change {
  changeId: string;
  sectionKey: string;
  operation: ChangeOperation;
  title: string | null;
  content: string | null;
  rationale: string | null;
}

/** sectionsEtag: lower-case hex SHA-256 of the canonical JSON of the sections (64 characters). */
export function sectionsEtag(sections: readonly Section[]): string {
  return createHash('sha256').update(canonicalJson(sections)).digest('hex');
}

/**
 * Applies changes in the given (group) order. `replace` and `add` upsert the section by key
 * (`replace` keeps a title or content the change leaves out; a missing section is appended);
 * `remove` drops it (a missing one is a no-op).
 */
export function applyChanges(sections: readonly Section[], changes: readonly Change[]): Section[] {
  let result = sections.map((s) => ({ ...s }));
  for (const change of changes) {
    const index = result.findIndex((s) => s.key === change.sectionKey);
    if (change.operation === 'remove') {
      if (index >= 0) result = result.filter((_, i) => i !== index);
      continue;
    }
    const current = index >= 0 ? result[index] : null;
    const next: Section = {
      key: change.sectionKey,
      title: change.title ?? current?.title ?? change.sectionKey,
      content: change.content ?? current?.content ?? '',
    };
    if (index >= 0) result[index] = next;
    else result.push(next);
  }
  return result;
}

export function sameSections(a: readonly Section[], b: readonly Section[]): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
