import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const read = (file: string) => readFileSync(join(__dirname, '..', file), 'utf8');

/** The message schema each of openapi.json's webhooks sends, e.g. `SessionAnalyzedWebhookEvent`. */
function declaredEvents(): string[] {
  const { webhooks } = JSON.parse(read('openapi.json')) as { webhooks: Record<string, unknown> };
  return Object.values(webhooks).map((webhook) => {
    const schema = /#\/components\/schemas\/(\w+WebhookEvent)"/.exec(JSON.stringify(webhook));
    if (!schema) throw new Error(`a webhook without a message schema: ${JSON.stringify(webhook).slice(0, 80)}`);
    return schema[1];
  });
}

/** client/webhook-events.ts: the SDK's WebhookEvent union names every message the API declares, and no other. */
describe('the SDK webhook event union', () => {
  it('holds exactly the messages of openapi.json webhooks section', () => {
    const union = /export type WebhookEvent =([^;]+);/.exec(read('client/webhook-events.ts'))![1];
    const members = union
      .split('|')
      .map((member) => member.trim())
      .filter(Boolean);

    expect(members.sort()).toEqual(declaredEvents().sort());
  });
});
