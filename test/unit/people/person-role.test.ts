import { PERSON_ROLES, roleAllows, type PersonRole } from '../../../shared/people/person-role';
import type { ConsoleRole } from '../../../shared/tenancy/tenancy-entities';

// Compile-time: tenancy's spelling of the roles is the people module's (tsc fails when they part).
const sameRoles: [PersonRole, ConsoleRole] extends [ConsoleRole, PersonRole] ? true : false = true;

describe('person roles', () => {
  test('tenancy and people spell the same roles', () => {
    expect(sameRoles).toBe(true);
  });

  test('each role allows what the roles before it allow, and nothing after', () => {
    expect(PERSON_ROLES.map((held) => PERSON_ROLES.filter((needed) => roleAllows(held, needed)))).toEqual([
      ['viewer'],
      ['viewer', 'campaign-manager'],
      ['viewer', 'campaign-manager', 'admin'],
    ]);
  });
});
