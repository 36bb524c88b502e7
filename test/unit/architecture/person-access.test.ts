import { routes as allRoutes } from '../../../runtime-contract/all-routes';
import { apiKeyOnlyOperations, personAccess } from '../../../runtime-contract/person-access';
import type { RouteDefinition } from '../../../runtime-contract/route-manifest';
import { isPersonRole } from '../../../shared/people/person-role';

/**
 * Who may call what is a decision for every keyed route of the broadcast surface: each is either in
 * `personAccess` (people may, with a role) or in `apiKeyOnlyOperations` (back ends only).
 */
const undecided = (routes: readonly RouteDefinition[]): string[] =>
  routes
    .filter((route) => route.auth === 'broadcast-api-key')
    .filter((route) => !(route.operation in personAccess) && !apiKeyOnlyOperations.includes(route.operation))
    .map((route) => `${route.method} ${route.path} (${route.operation})`);

describe('person access', () => {
  test('every broadcast-api-key route is either open to people with a role or left to API keys', () => {
    expect(undecided(allRoutes)).toEqual([]);
  });

  test('no operation is in both lists, and every listed operation is a route', () => {
    const operations = new Set(allRoutes.map((route) => route.operation));
    for (const operation of Object.keys(personAccess)) {
      expect(apiKeyOnlyOperations).not.toContain(operation);
      expect(operations.has(operation)).toBe(true);
      expect(isPersonRole(personAccess[operation])).toBe(true);
    }
    for (const operation of apiKeyOnlyOperations) expect(operations.has(operation)).toBe(true);
  });

  test('the manifest carries each role onto its routes and none elsewhere', () => {
    for (const route of allRoutes) {
      const expected = route.auth === 'broadcast-api-key' ? personAccess[route.operation] : undefined;
      expect([route.operation, route.people]).toEqual([route.operation, expected]);
    }
  });

  test('the check can fail: a keyed route in neither list is reported', () => {
    const stray: RouteDefinition = {
      surface: 'broadcast',
      method: 'POST',
      path: '/stray',
      group: 'broadcast-send',
      operation: 'strayOperation',
      auth: 'broadcast-api-key',
      rateLimit: 'status',
    };
    expect(undecided([stray])).toEqual(['POST /stray (strayOperation)']);
  });
});
