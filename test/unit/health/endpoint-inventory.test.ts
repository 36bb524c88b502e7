import { endpointInventory } from '../../../functions/health/health.handler';
import { publicPath, serviceRoutes } from '../../../runtime-contract/route-manifest';

const broadcastRoutes = serviceRoutes.filter((route) => route.surface === 'broadcast');

describe("the health answer's route inventory", () => {
  it('has one entry per broadcast route, keyed by method and path', () => {
    for (const route of broadcastRoutes) {
      expect(endpointInventory[`${route.method} ${route.path}`]).toBe(`${route.method} ${publicPath(route)}`);
    }
  });

  it('lists every method of a shared path (POST, GET and DELETE of webhooks)', () => {
    const webhookEntries = Object.keys(endpointInventory).filter((key) => key.includes('/webhooks'));
    expect(webhookEntries).toEqual(
      expect.arrayContaining(['POST /broadcast/public/webhooks', 'GET /broadcast/public/webhooks', 'DELETE /broadcast/public/webhooks/{webhookId}']),
    );
  });

  it('keeps the earlier short names only where one route has them (send-bulk-standard), never a shared one (webhooks)', () => {
    expect(endpointInventory['send-bulk-standard']).toMatch(/^POST .*\/send-bulk-standard$/);
    expect(endpointInventory).not.toHaveProperty('webhooks');
  });
});
