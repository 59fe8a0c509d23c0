/**
 * The one definition of a visible session: a production session whose analysis is done. Every
 * query that reads visible sessions, the partial indexes (SessionEntity) and the triggers of the
 * migrations use this text, so the planner matches queries to those indexes; the migration check
 * proves the triggers agree.
 */
export function visibleSession(alias?: string): string {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return `${column('environment')} = 'production' AND ${column('analysis_status')} = 'analyzed'`;
}
