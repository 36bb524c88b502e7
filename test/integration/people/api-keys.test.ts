/**
 * The organization's own API keys through the local runtime (issue 37: an admin manages "API keys";
 * docs/PEOPLE.md "API keys"): an admin person lists, creates (the new key works at the gateway),
 * revokes (it then answers 401); a campaign manager is refused; a key bound to one sender is out of
 * scope; every change is in the audit log with the person.
 *
 * A person's request is handed to its function's handler as the gateway hands it on (as in
 * people-api.test.ts); key-holders' requests go through the local gateway.
 */
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { callAsPerson } from '../../support/people/person-calls';
import { startTestIssuer, type TestIssuer } from '../../support/people/test-issuer';
import { BASE, DEMO, issueKey, keyHeader, kitEnvironment } from '../broadcast/broadcast-test-kit';

jest.setTimeout(60_000);

describe('the organization’s API keys', () => {
  let runtime: TestRuntime;
  let issuer: TestIssuer;
  let key: { secret: string; credentialId: string };
  const asKey = (method: string, path: string, body?: unknown, secret = key.secret) =>
    runtime.call(method, `${BASE}${path}`, { headers: keyHeader(secret), body });

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
      startWorkers: false,
      environment: { ...kitEnvironment, PEOPLE_OIDC_ISSUERS: JSON.stringify([{ issuer: issuer.issuer, audience: issuer.audience }]) },
    });
    key = await issueKey(runtime.demo.organizationId);
  }, 45_000);
  afterAll(async () => {
    await runtime?.close();
    await issuer?.close();
  });

  it('an admin lists, creates and revokes a key; the key works until revoked; each change is audited with the person', async () => {
    const admin = await invite('keys-admin@people.example', 'admin');

    const created = await asPerson(admin.token, 'POST', '/api-keys', {});
    expect(created.status).toBe(201);
    const { credentialId, apiKey } = created.body.data as { credentialId: string; apiKey: string };
    expect(created.body.data).toEqual({ credentialId: expect.stringMatching(/^cred_/), apiKey: expect.stringMatching(/^wbk_/), createdAt: expect.any(String) });
    // The new key is the organization's: it passes the gateway and the function.
    const me = await asKey('GET', '/me', undefined, apiKey);
    expect([me.status, me.body.data.credentialId, me.body.data.role]).toEqual([200, credentialId, 'admin']);

    const listed = await asPerson(admin.token, 'GET', '/api-keys');
    expect(listed.status).toBe(200);
    const keys = listed.body.data.keys as Array<Record<string, unknown>>;
    expect(keys[0]).toEqual({ credentialId, origin: 'organization-admin', createdAt: created.body.data.createdAt });
    expect(keys).toEqual(expect.arrayContaining([expect.objectContaining({ credentialId: key.credentialId, origin: 'operator' })]));
    expect(JSON.stringify(listed.body)).not.toMatch(/secretHash|wbk_/);

    const revoked = await asPerson(admin.token, 'DELETE', `/api-keys/${credentialId}`);
    expect([revoked.status, revoked.body.data]).toEqual([200, { credentialId, revoked: true }]);
    const after = await asKey('GET', '/me', undefined, apiKey);
    expect(after.status).toBe(401);
    const relisted = (await asPerson(admin.token, 'GET', '/api-keys')).body.data.keys as Array<Record<string, unknown>>;
    expect(relisted.find((listedKey) => listedKey.credentialId === credentialId)).toEqual(expect.objectContaining({ revokedAt: expect.any(String) }));

    const entries = (await asKey('GET', `/audit-log?actorId=${admin.personId}`)).body.data.entries as Array<Record<string, any>>;
    expect(entries.map((entry) => [entry.action, entry.statusCode, entry.actor.email])).toEqual([
      ['revokeApiKey', 200, 'keys-admin@people.example'],
      ['createApiKey', 201, 'keys-admin@people.example'],
    ]);
    expect(entries[0]!.target).toEqual({ credentialId });
    expect(JSON.stringify(entries)).not.toContain(apiKey);
  });

  it('a campaign manager is refused; a sender-bound key is out of scope; a number not the organization’s and an unknown id are named', async () => {
    const manager = await invite('keys-manager@people.example', 'campaign-manager');
    for (const [method, path, body] of [
      ['GET', '/api-keys'],
      ['POST', '/api-keys', {}],
      ['DELETE', `/api-keys/${key.credentialId}`],
    ] as const) {
      const refused = await asPerson(manager.token, method, path, body);
      expect([refused.status, refused.body.data.error.code]).toEqual([403, 'ROLE_NOT_ALLOWED']);
    }
    const bound = await issueKey(runtime.demo.organizationId, DEMO.sender1);
    const outOfScope = await asKey('GET', '/api-keys', undefined, bound.secret);
    expect([outOfScope.status, outOfScope.body.data.error.code]).toEqual([403, 'OUTSIDE_KEY_SCOPE']);

    const notOurs = await asKey('POST', '/api-keys', { phoneNumber: '15559999999' });
    expect([notOurs.status, notOurs.body.data.error.code]).toEqual([400, 'PHONE_NUMBER_NOT_FOUND']);
    const badNumber = await asKey('POST', '/api-keys', { phoneNumber: '+1 555' });
    expect([badNumber.status, badNumber.body.data.error.message]).toEqual([400, expect.stringContaining('phoneNumber')]);
    const boundCreated = await asKey('POST', '/api-keys', { phoneNumber: DEMO.sender1 });
    expect([boundCreated.status, boundCreated.body.data.boundPhoneNumber]).toEqual([201, DEMO.sender1]);
    const unknown = await asKey('DELETE', '/api-keys/cred_01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect([unknown.status, unknown.body.data.error.code]).toEqual([404, 'API_KEY_NOT_FOUND']);
    // The calling key may revoke itself: the answer is given, and its next request is refused.
    const own = await asKey('DELETE', `/api-keys/${key.credentialId}`);
    expect(own.status).toBe(200);
    expect((await asKey('GET', '/me')).status).toBe(401);
  });
});
