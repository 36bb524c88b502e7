/**
 * What every WebhookEndpointRegistry does, as observed through the port (fake
 * test/support/webhook-fakes.ts, adapter DynamoDbWebhookEndpointRegistry): organization scoping,
 * subscriptions by type, delete answers, failing/active marks, secrets. Each test uses its own organizations.
 */
import type { WebhookEndpoint, WebhookEndpointRegistry } from '../../../shared/customer-events/ports';

let sequence = 0;
const freshOrganization = () => `org_contract${process.pid}x${(sequence += 1)}`;

const endpoint = (id: string, organizationId: string, events: WebhookEndpoint['events']): WebhookEndpoint => ({
  id,
  organizationId,
  url: `https://hooks.example.com/${id}`,
  events,
  state: 'ACTIVE',
  createdAt: '2026-03-01T12:00:00.000Z',
});

export function describeWebhookEndpointRegistryContract(name: string, makeRegistry: () => WebhookEndpointRegistry | Promise<WebhookEndpointRegistry>): void {
  describe(`WebhookEndpointRegistry contract: ${name}`, () => {
    let registry: WebhookEndpointRegistry;
    beforeAll(async () => {
      registry = await makeRegistry();
    });

    it('scopes every read and delete to the organization; subscribers are filtered by type', async () => {
      const [a, b] = [freshOrganization(), freshOrganization()];
      await registry.create(endpoint('whk_a1', a, ['message.status', 'job.completed']), 'whsec_1');
      await registry.create(endpoint('whk_a2', a, ['template.status']), 'whsec_2');
      await registry.create(endpoint('whk_b1', b, ['message.status']), 'whsec_3');
      expect((await registry.list(a)).map((e) => e.id).sort()).toEqual(['whk_a1', 'whk_a2']);
      expect(await registry.get(b, 'whk_a1')).toBeUndefined();
      expect((await registry.subscribersOf(a, 'message.status')).map((e) => e.id)).toEqual(['whk_a1']);
      expect(await registry.subscribersOf(a, 'message.received')).toEqual([]);
      expect(await registry.delete(b, 'whk_a1')).toBe(false);
      expect(await registry.get(a, 'whk_a1')).toEqual(endpoint('whk_a1', a, ['message.status', 'job.completed']));
      expect(await registry.delete(a, 'whk_a1')).toBe(true);
      expect(await registry.delete(a, 'whk_a1')).toBe(false);
      expect((await registry.list(a)).map((e) => e.id)).toEqual(['whk_a2']);
    });

    it('never overwrites an endpoint id, and gives back the secret it was created with', async () => {
      const org = freshOrganization();
      await registry.create(endpoint('whk_c1', org, ['message.status']), 'whsec_first');
      await expect(registry.create(endpoint('whk_c1', org, ['message.status']), 'whsec_second')).rejects.toThrow();
      expect(await registry.secretOf(endpoint('whk_c1', org, ['message.status']))).toBe('whsec_first');
    });

    it('marks failing (keeping the first time) and active again; failing endpoints remain subscribers; marks on a deleted endpoint change nothing', async () => {
      const org = freshOrganization();
      await registry.create(endpoint('whk_d1', org, ['message.status']), 'whsec_d');
      await registry.markFailing(org, 'whk_d1', new Date('2026-03-02T00:00:00Z'));
      await registry.markFailing(org, 'whk_d1', new Date('2026-03-03T00:00:00Z'));
      expect(await registry.get(org, 'whk_d1')).toMatchObject({ state: 'FAILING', failingSince: '2026-03-02T00:00:00.000Z' });
      expect((await registry.subscribersOf(org, 'message.status')).map((e) => e.id)).toEqual(['whk_d1']);
      await registry.markActive(org, 'whk_d1');
      const active = await registry.get(org, 'whk_d1');
      expect(active).toMatchObject({ state: 'ACTIVE' });
      expect(active).not.toHaveProperty('failingSince');
      await registry.delete(org, 'whk_d1');
      await registry.markFailing(org, 'whk_d1', new Date());
      await registry.markActive(org, 'whk_d1');
      expect(await registry.get(org, 'whk_d1')).toBeUndefined();
    });

    it('has no secret for a deleted endpoint', async () => {
      const org = freshOrganization();
      const e = endpoint('whk_e1', org, ['message.status']);
      await registry.create(e, 'whsec_e1');
      await registry.delete(org, 'whk_e1');
      await expect(registry.secretOf(e)).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
    });
  });
}
