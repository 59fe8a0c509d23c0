import request from 'supertest';
import { createTestApp, type Tenant, type TestApp } from './support/test-app';

describe('campaigns (smoke)', () => {
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.createTenant();
  });
  afterAll(() => t.close());

  it('creates and lists a campaign', async () => {
    const created = await request(t.server).post('/api/v1/custom-link-campaigns').set('x-api-key', tenant.key).send({ name: ' Launch ' }).expect(201);
    expect(created.body).toMatchObject({ name: 'Launch', customLinkCount: 0, activeCustomLinkCount: 0 });
    const list = await request(t.server).get('/api/v1/custom-link-campaigns').set('Authorization', `Bearer ${tenant.key}`).expect(200);
    expect(list.body.campaigns.map((c: { id: string }) => c.id)).toEqual([created.body.id]);
  });
});
