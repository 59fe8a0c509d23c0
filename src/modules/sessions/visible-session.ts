/**
 * The one definition of a visible session in SQL: a production session whose analysis is done
 * (isVisible is its twin for a row in hand, as the derived rows read it). Every query that reads
 * visible sessions and the partial indexes of the migrations use this text, so the planner matches
 * queries to those indexes; test/migrated-schema.e2e-spec.ts proves the indexes agree.
 */
export function visibleSession(alias?: string): string {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return `${column('environment')} = 'production' AND ${column('analysis_status')} = 'analyzed'`;
}
