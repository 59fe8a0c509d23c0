import type { AgentLinksResponse } from './dto/playbook.response';

/** AgentLinks (docs/api.md §14.5): staging always; production once a publish has succeeded. */
export function agentLinks(
  agentBaseUrl: string,
  organizationId: string,
  productionVersion: number | null,
): AgentLinksResponse {
  return {
    staging: { url: `${agentBaseUrl}/staging/${organizationId}`, availabilityReason: null },
    production:
      productionVersion === null
        ? { url: null, availabilityReason: 'not_published' }
        : { url: `${agentBaseUrl}/live/${organizationId}`, availabilityReason: null },
  };
}
