/**
 * Every route no usage plan meters has a guard of its own (runtime-contract/route-guards.ts): a
 * method-level throttle, and a per-IP WAF rule where its path can be matched; the Meta webhook's
 * throttle is sized for Meta's guidance (3x the outgoing peak plus inbound).
 */
import { routes } from '../../../runtime-contract/all-routes';
import { accountBurstLimit, metaWebhookSizing, routeGuards, type RouteGuard } from '../../../runtime-contract/route-guards';
import { methodThrottleOf, needsRouteGuard, publicPath, requiresGatewayApiKey } from '../../../runtime-contract/route-manifest';

const describeRoute = (route: (typeof routes)[number]) => `${route.method} ${publicPath(route)}`;

describe('route guards', () => {
  it('every route no usage plan meters has one; no usage-plan route has one', () => {
    expect(routes.filter((route) => needsRouteGuard(route) && !route.guard).map(describeRoute)).toEqual([]);
    expect(routes.filter((route) => requiresGatewayApiKey(route) && route.guard).map(describeRoute)).toEqual([]);
  });

  it('guards health, generate-key, the earlier sends and both Meta webhook routes', () => {
    const guardOf = (operation: string) => routes.filter((route) => route.operation === operation).map((route) => route.guard);
    expect(guardOf('health')).toEqual(['health']);
    expect(guardOf('generateKey')).toEqual(['key-generation']);
    expect(guardOf('sendSingle')).toEqual(['earlier-send']);
    expect(guardOf('sendBulk')).toEqual(['earlier-send', 'earlier-send']);
    expect(guardOf('receiveMetaEvents')).toEqual(['meta-webhook']);
    expect(guardOf('verifyMetaSubscription')).toEqual(['meta-verification']);
  });

  it('the unauthenticated and earlier-send throttles stay far below the stage default (200/s) that every keyed method gets', () => {
    // Meta's webhook and the tracked links' redirect carry traffic the platform's own sends cause: sized below.
    for (const route of routes.filter((candidate) => candidate.guard && candidate.guard !== 'meta-webhook' && candidate.guard !== 'click-redirect')) {
      expect(methodThrottleOf(route)!.rateLimit).toBeLessThanOrEqual(50);
    }
  });

  it("sizes the tracked links' redirect for a campaign's burst of taps, and holds one address to a person's pace", () => {
    const redirect = routes.filter((route) => route.guard === 'click-redirect');
    expect(redirect.map((route) => route.method).sort()).toEqual(['GET', 'HEAD']);
    for (const route of redirect) expect(methodThrottleOf(route)!.rateLimit).toBeGreaterThanOrEqual(200);
    const perIp = routeGuards['click-redirect'].perIp;
    expect(perIp.limit / perIp.windowSeconds).toBeLessThanOrEqual(5);
  });

  it("sizes the Meta webhook's throttle and per-IP rule for at least 3x the outgoing peak plus inbound", () => {
    const post = routes.find((route) => route.operation === 'receiveMetaEvents')!;
    const needed = 3 * metaWebhookSizing.outgoingPeakPerSecond + metaWebhookSizing.inboundPerSecond;
    expect(methodThrottleOf(post)!.rateLimit).toBeGreaterThanOrEqual(needed);
    expect(methodThrottleOf(post)!.burstLimit).toBeLessThanOrEqual(accountBurstLimit);
    // One Meta address may carry all of it, for the whole window.
    const perIp = routeGuards['meta-webhook'].perIp;
    expect(perIp.limit).toBeGreaterThanOrEqual(needed * perIp.windowSeconds);
  });

  it("WAF's rules accept every guard's numbers (windows 60-600 s, limits from 10), and every burst holds a second of its rate", () => {
    for (const [name, guard] of Object.entries(routeGuards) as Array<[string, RouteGuard]>) {
      expect([name, guard.methodThrottle.burstLimit >= guard.methodThrottle.rateLimit]).toEqual([name, true]);
      if (!guard.perIp) continue;
      expect([60, 120, 300, 600]).toContain(guard.perIp.windowSeconds);
      expect(guard.perIp.limit).toBeGreaterThanOrEqual(10);
    }
  });

  it('a guard with a WAF rule holds only routes WAF can match (no path parameter but one ending the path, not the root)', () => {
    for (const route of routes.filter((candidate) => candidate.guard && (routeGuards[candidate.guard] as RouteGuard).perIp)) {
      // A single trailing parameter (/r/{token}) is matched by the stage and the fixed part the path starts with.
      const path = route.path.replace(/\/\{[^{}/]+\}$/, '');
      expect([describeRoute(route), /\{|\/$/.test(path) || path === '']).toEqual([describeRoute(route), false]);
    }
  });
});
