/**
 * People's own sign-in on the broadcast API through the local runtime (issue 37 "Proof"; docs/PEOPLE.md):
 * tokens of a test issuer (PEOPLE_OIDC_ISSUERS), people invited, changed and removed through /people.
 *
 * A person's request is handed to its function's handler as API Gateway hands it on after the
 * gateway's own check (on AWS and in the local gateway, the request authorizer lets a person's token
 * through; that part is the gateway's, tested with it). Key-holders' requests go through the gateway.
 */
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { callAsPerson } from '../../support/people/person-calls';
import { startTestIssuer, type TestIssuer } from '../../support/people/test-issuer';
import { BASE, DEMO, issueKey, keyHeader, kitEnvironment } from '../broadcast/broadcast-test-kit';
import { audienceOf } from '../campaigns/campaign-test-kit';

jest.setTimeout(120_000);

describe('people on the broadcast API', () => {
  let runtime: TestRuntime;
  let issuer: TestIssuer;
  let key: string;
  const asKey = (method: string, path: string, body?: unknown) => runtime.call(method, `${BASE}${path}`, { headers: keyHeader(key), body });

  /** A person's request, with their token (and nothing else), to the route's function. */
  const asPerson = (token: string, method: string, path: string, body?: unknown) => callAsPerson(runtime, token, method, `${BASE}${path}`, body);

  const invite = async (email: string, role: string): Promise<{ personId: string; token: string }> => {
    const invited = await asKey('POST', '/people', { email, role });
    expect(invited.status).toBe(201);
    return { personId: invited.body.data.person.personId, token: await issuer.token(email) };
  };

  beforeAll(async () => {
    issuer = await startTestIssuer();
    runtime = await startTestRuntime({
      environment: { ...kitEnvironment, PEOPLE_OIDC_ISSUERS: JSON.stringify([{ issuer: issuer.issuer, audience: issuer.audience }]) },
    });
    key = (await issueKey(runtime.demo.organizationId)).secret;
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
    await issuer?.close();
  });

  it('a viewer reads broadcasts and /me but may not launch; a campaign manager launches', async () => {
    const viewer = await invite('viewer@people.example', 'viewer');
    const manager = await invite('Manager@People.example', 'campaign-manager');

    const me = await asPerson(viewer.token, 'GET', '/me');
    expect([me.status, me.body.data]).toEqual([
      200,
      { organizationId: runtime.demo.organizationId, actor: 'person', role: 'viewer', personId: viewer.personId, email: 'viewer@people.example' },
    ]);
    expect((await asPerson(viewer.token, 'GET', '/broadcasts')).status).toBe(200);

    const audienceId = await audienceOf(asKey, 'People test', [{ countryCode: '91', toPhoneNumber: '9300000001', attributes: { first_name: 'Ana' } }]);
    const created = await asKey('POST', '/campaigns', {
      name: 'People launch',
      fromPhoneNumber: DEMO.sender1,
      templateName: 'order_update',
      templateLanguage: 'en_US',
      templateType: 'UTILITY',
      audience: { audienceIds: [audienceId] },
      templateParams: [{ attribute: 'first_name', fallback: 'there' }, 'SPRING25'],
    });
    expect(created.status).toBe(201);
    const campaignId = created.body.data.campaignId as string;

    const refused = await asPerson(viewer.token, 'POST', `/campaigns/${campaignId}/launch`);
    expect([refused.status, JSON.stringify(refused.body)]).toEqual([403, expect.stringContaining('ROLE_NOT_ALLOWED')]);
    const launched = await asPerson(manager.token, 'POST', `/campaigns/${campaignId}/launch`);
    expect([launched.status, launched.body.data.state]).toEqual([202, 'LAUNCHING']);
    // A back end's route stays the key's: a person's token there is refused before anything is read.
    const send = await asPerson(manager.token, 'POST', '/send-freeform', { fromPhoneNumber: DEMO.sender1 });
    expect([send.status, JSON.stringify(send.body)]).toEqual([403, expect.stringContaining('PERSON_NOT_ALLOWED')]);
  });

  it("an admin manages people; a removed person's next request answers 401; the last admin keeps the role", async () => {
    const admin = await invite('admin@people.example', 'admin');
    const zoe = await invite('zoe@people.example', 'viewer');
    expect((await asPerson(zoe.token, 'GET', '/people')).status).toBe(403);

    const listed = await asPerson(admin.token, 'GET', '/people');
    expect(listed.status).toBe(200);
    expect(listed.body.data.people).toEqual(
      expect.arrayContaining([{ personId: zoe.personId, email: 'zoe@people.example', role: 'viewer', joinedAt: expect.any(String) }]),
    );
    expect(JSON.stringify(listed.body)).not.toContain('usagePlanKey');

    const again = await asPerson(admin.token, 'POST', '/people', { email: 'zoe@people.example', role: 'admin' });
    expect([again.status, JSON.stringify(again.body)]).toEqual([409, expect.stringContaining('PERSON_EXISTS')]);
    const changed = await asPerson(admin.token, 'PATCH', `/people/${zoe.personId}`, { role: 'campaign-manager' });
    expect([changed.status, changed.body.data.role]).toEqual([200, 'campaign-manager']);
    expect((await asPerson(zoe.token, 'GET', '/me')).body.data.role).toBe('campaign-manager');

    const removed = await asPerson(admin.token, 'DELETE', `/people/${zoe.personId}`);
    expect([removed.status, removed.body.data]).toEqual([200, { personId: zoe.personId, removed: true }]);
    // Her token is still valid at the issuer; her membership is gone.
    const after = await asPerson(zoe.token, 'GET', '/me');
    expect([after.status, JSON.stringify(after.body)]).toEqual([401, expect.stringContaining('UNAUTHORIZED')]);
    expect((await asPerson(admin.token, 'DELETE', `/people/${zoe.personId}`)).status).toBe(404);

    // Every admin of the organization but this one gives up the role; then this one cannot.
    const people = (await asKey('GET', '/people')).body.data.people as Array<{ personId: string; role: string }>;
    for (const person of people.filter((candidate) => candidate.role === 'admin' && candidate.personId !== admin.personId)) {
      expect((await asKey('PATCH', `/people/${person.personId}`, { role: 'viewer' })).status).toBe(200);
    }
    const lastAdmin = await asPerson(admin.token, 'PATCH', `/people/${admin.personId}`, { role: 'viewer' });
    expect([lastAdmin.status, JSON.stringify(lastAdmin.body)]).toEqual([409, expect.stringContaining('LAST_ADMIN')]);
  });

  it('expired, foreign-issuer and forged tokens answer 401; the API key still works and reads as admin', async () => {
    await invite('eve@people.example', 'viewer');
    const expired = await issuer.token('eve@people.example', { expiresIn: -120 });
    const foreignIssuer = await issuer.token('eve@people.example', { issuer: 'https://login.example.com' });
    const forged = await issuer.token('eve@people.example', { signWith: issuer.foreignKey });
    const otherAudience = await issuer.token('eve@people.example', { audience: 'someone-else' });
    for (const token of [expired, foreignIssuer, forged, otherAudience, 'not-a-jwt']) {
      const answer = await asPerson(token, 'GET', '/me');
      expect([answer.status, JSON.stringify(answer.body)]).toEqual([401, expect.stringContaining('UNAUTHORIZED')]);
    }
    const me = await asKey('GET', '/me');
    expect([me.status, me.body.data.actor, me.body.data.role]).toEqual([200, 'api-key', 'admin']);
    expect((await asKey('GET', '/broadcasts')).status).toBe(200);
  });
});
