import { CampaignRef, CampaignRefInput, LinkFieldsInput } from './link-fields.request';

/** Body of PATCH /api/v1/custom-links/{link_id}: only present fields change; `campaign: null` unfiles. */
export class UpdateLinkRequest extends LinkFieldsInput {
  @CampaignRef() campaign?: CampaignRefInput | null;
}
