import type { AddressInfo } from 'node:net';
import { createApiClient } from '../client/index';
import { createTestApp, type TestApp, type Tenant } from './support/test-app';

/** The client generated from openapi.json (client/) against the running app: paths, bodies and answers typed by the document. */
describe('generated API client', () => {
  let t: TestApp;
  let tenant: Tenant;
  let client: ReturnType<typeof createApiClient>;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    tenant = await t.createTenant(['custom_links:read', 'custom_links:write']);
    client = createApiClient(`http://127.0.0.1:${(t.server.address() as AddressInfo).port}`, tenant.key);
  });
  afterAll(() => t.close());

  it('creates and lists campaigns with typed bodies and answers', async () => {
    const created = await client.POST('/api/v1/custom-link-campaigns', { body: { name: 'Client campaign' } });
    expect(created.response.status).toBe(201);
    const campaignId: string | undefined = created.data?.id;
    expect(created.data).toMatchObject({ name: 'Client campaign', customLinkCount: 0 });

    const listed = await client.GET('/api/v1/custom-link-campaigns');
    expect(listed.data?.campaigns.map((c) => c.id)).toEqual([campaignId]);
  });

  it('gives typed errors: a 404 detail and a 422 with its locations', async () => {
    const missing = await client.GET('/api/v1/custom-links/{link_id}', {
      params: { path: { link_id: '00000000-0000-7000-8000-000000000000' } },
    });
    expect([missing.response.status, missing.error?.detail]).toEqual([
      404,
      "Custom Link not found for the key's organization.",
    ]);

    const invalid = await client.PATCH('/api/v1/custom-link-campaigns/{campaign_id}', {
      params: { path: { campaign_id: 'not-a-uuid' } },
      body: { name: 'x' },
    });
    expect(invalid.response.status).toBe(422);
    const issues =
      invalid.error && 'detail' in invalid.error && Array.isArray(invalid.error.detail) ? invalid.error.detail : [];
    expect(issues.map((issue) => issue.loc)).toEqual([['path', 'campaign_id']]);
  });
});
