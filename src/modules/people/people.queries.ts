/**
 * SQL joining each row to its person (people_pkey) under `alias`, for the sessions module's hot
 * reads, which show the person's intent in the same statement. Arguments are SQL expressions.
 */
export function personJoinSql(alias: string, organization: string, personId: string): string {
  return `LEFT JOIN people ${alias} ON ${alias}.organization_id = ${organization} AND ${alias}.id = ${personId}`;
}
