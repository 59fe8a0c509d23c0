/** SQL selecting `renders_queued` and `renders_settled` (int) of the renders a job (SQL expressions) asked for. */
export function rendersOfJobSql(organization: string, job: string): string {
  return `SELECT count(*)::int AS renders_queued, count(*) FILTER (WHERE status NOT IN ('queued', 'processing'))::int AS renders_settled
            FROM thumbnail_renders WHERE organization_id = ${organization} AND job_id = ${job}`;
}
