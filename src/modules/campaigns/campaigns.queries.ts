/** SQL selecting the campaign row (organization_id, id) of these SQL expressions: empty when it is not in the organization. */
export function campaignRowSql(organization: string, id: string): string {
  return `SELECT organization_id, id FROM campaigns WHERE organization_id = ${organization} AND id = ${id}`;
}
