/** Roles in the console (docs/CONSOLE.md "Roles"): what each caller sees, from the API's own table; the admin screens' addresses and words. */
import { actorWords, invitationWords, outcomeWords, targetWords } from '../../../console/model/admin';
import { controlOperations, mayUse, meOf, showsAdminScreens, signedInAs, type Control, type Me } from '../../../console/model/roles';
import { routeOf } from '../../../console/model/route';
import { personAccess } from '../../../runtime-contract/person-access';
import { serviceRoutes } from '../../../runtime-contract/route-manifest';

const person = (role: Me['role']): Me => ({ organizationId: 'org_1', actor: 'person', role, personId: 'psn_1', email: 'ana@example.com' });
const controls = Object.keys(controlOperations) as Control[];
const shown = (me: Me | undefined) => controls.filter((control) => mayUse(me, control));

describe('what each role sees', () => {
  it('a viewer sees no launch, pause, resume, cancel or follow-up; a campaign manager all of them; neither the admin screens', () => {
    expect(shown(person('viewer'))).toEqual([]);
    expect(shown(person('campaign-manager'))).toEqual(controls);
    expect(showsAdminScreens(person('viewer'))).toBe(false);
    expect(showsAdminScreens(person('campaign-manager'))).toBe(false);
  });

  it('an admin sees everything; an organization key reads as admin, a sender-bound key as campaign manager', () => {
    expect(shown(person('admin'))).toEqual(controls);
    expect(showsAdminScreens(person('admin'))).toBe(true);
    expect(showsAdminScreens({ organizationId: 'org_1', actor: 'api-key', role: 'admin', credentialId: 'key_1' })).toBe(true);
    const senderKey: Me = { organizationId: 'org_1', actor: 'api-key', role: 'campaign-manager', credentialId: 'key_2' };
    expect(shown(senderKey)).toEqual(controls);
    expect(showsAdminScreens(senderKey)).toBe(false);
  });

  it('an older service without GET /me: every control shown (the API decides), no admin screens', () => {
    expect(shown(undefined)).toEqual(controls);
    expect(showsAdminScreens(undefined)).toBe(false);
  });

  it('hides exactly what the API would refuse: each control is a real operation of the table, at the table’s role', () => {
    const operations = new Set(serviceRoutes.map((route) => route.operation));
    for (const control of controls) {
      const operation = controlOperations[control];
      expect(operations.has(operation)).toBe(true);
      const needed = personAccess[operation];
      expect(needed).toBeDefined();
      for (const role of ['viewer', 'campaign-manager', 'admin'] as const) {
        const rank = ['viewer', 'campaign-manager', 'admin'];
        expect(mayUse(person(role), control)).toBe(rank.indexOf(role) >= rank.indexOf(needed!));
      }
    }
  });

  it('the people and audit routes the table lists need the admin role, as the admin screens assume', () => {
    const adminRows = Object.entries(personAccess).filter(([operation]) => /person|people|audit/i.test(operation));
    for (const [operation, role] of adminRows) expect([operation, role]).toEqual([operation, 'admin']);
  });

  it('reads GET /me and says who is signed in', () => {
    expect(meOf({ organizationId: 'org_1', actor: 'person', role: 'viewer', email: 'v@example.com' })?.role).toBe('viewer');
    expect(meOf({ organizationId: 'org_1', actor: 'person', role: 'owner' })).toBeUndefined();
    expect(meOf(null)).toBeUndefined();
    expect(signedInAs(person('campaign-manager'))).toBe('ana@example.com (Campaign manager)');
    expect(signedInAs({ organizationId: 'org_1', actor: 'api-key', role: 'admin' })).toBe('API key (Admin)');
  });
});

describe('the admin screens', () => {
  it('have their own addresses; the others are unchanged', () => {
    expect(routeOf('#/people')).toEqual({ page: 'people' });
    expect(routeOf('#/audit-log')).toEqual({ page: 'audit-log' });
    expect(routeOf('#/people/x')).toEqual({ page: 'list' });
    expect(routeOf('#/campaigns')).toEqual({ page: 'campaign-list' });
    expect(routeOf('#/')).toEqual({ page: 'list' });
  });

  it('say who acted, on what, and how it ended', () => {
    expect(actorWords({ kind: 'person', personId: 'psn_1', email: 'ana@example.com', role: 'admin' })).toBe('ana@example.com (admin)');
    expect(actorWords({ kind: 'credential', credentialId: 'key_1', credentialKind: 'broadcast-api-key' })).toBe('API key key_1');
    expect(actorWords({ kind: 'operator', name: 'wa-admin' })).toBe('Operator wa-admin');
    expect(targetWords({ target: { personId: 'psn_1' }, path: '/people/psn_1' })).toBe('personId psn_1');
    expect(targetWords({ target: {}, path: '/people' })).toBe('/people');
    expect(outcomeWords({ outcome: 'refused', statusCode: 409, errorCode: 'LAST_ADMIN' })).toBe('refused (409 LAST_ADMIN)');
    expect(outcomeWords({ outcome: 'succeeded', statusCode: 201 })).toBe('succeeded (201)');
    expect(invitationWords({ delivery: 'managed-by-identity-provider' })).toMatch(/own sign-in service/);
    expect(invitationWords({ delivery: 'shown-once', temporaryPassword: 'x' })).toMatch(/temporary password below/);
    expect(invitationWords({ delivery: 'email-sent-by-identity-provider' })).toMatch(/emailed them/);
    expect(invitationWords({ delivery: 'something-new', temporaryPassword: 'x' })).toMatch(/temporary password below/);
  });
});
