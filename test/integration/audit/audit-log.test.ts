/**
 * The audit log through the local runtime (issue 37 item 3, docs/PEOPLE.md "Audit log"): an
 * audience created, a campaign created and cancelled, and a failed launch, all with the
 * organization's API key, read back from GET /audit-log newest first with the key's id, the source
 * address, the action and the outcome; the actor and action filters; paging; another
 * organization's key sees none of them; reads leave no entry.
 */
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, issueKey, keyHeader, kitEnvironment } from '../broadcast/broadcast-test-kit';

jest.setTimeout(120_000);

describe('audit log', () => {
  let runtime: TestRuntime;
  let key: { secret: string; credentialId: string };
  const call = (method: string, path: string, body?: unknown, secret = key.secret) =>
    runtime.call(method, `${BASE}${path}`, { headers: keyHeader(secret), body });
  const auditLog = async (query = '', secret = key.secret) => {
    const response = await call('GET', `/audit-log${query}`, undefined, secret);
    expect(response.status).toBe(200);
    return response.body.data as { entries: Array<Record<string, any>>; nextCursor: string | null };
  };
  const done: Array<{ action: string; statusCode: number; errorCode?: string; target: Record<string, string> }> = [];

  beforeAll(async () => {
    runtime = await startTestRuntime({ startWorkers: false, environment: { ...kitEnvironment } });
    key = await issueKey(runtime.demo.organizationId);

    const audience = await call('POST', '/audiences', { name: 'Audited' });
    expect(audience.status).toBe(201);
    done.push({ action: 'createAudience', statusCode: 201, target: {} });
    const created = await call('POST', '/campaigns', {
      name: 'Audited campaign',
      fromPhoneNumber: DEMO.sender1,
      templateName: 'order_update',
      templateLanguage: 'en_US',
      templateType: 'UTILITY',
      audience: { audienceIds: [audience.body.data.audienceId] },
      templateParams: [{ attribute: 'first_name', fallback: 'there' }, 'A-17'],
    });
    expect(created.status).toBe(201);
    const { campaignId } = created.body.data;
    done.push({ action: 'createCampaign', statusCode: 201, target: {} });
    const cancelled = await call('POST', `/campaigns/${campaignId}/cancel`);
    expect(cancelled.status).toBe(200);
    done.push({ action: 'cancelCampaign', statusCode: 200, target: { campaignId } });
    const launch = await call('POST', `/campaigns/${campaignId}/launch`);
    expect(launch.status).toBeGreaterThanOrEqual(400);
    done.push({ action: 'launchCampaign', statusCode: launch.status, errorCode: launch.body.data.error.code, target: { campaignId } });
    // A read and a dry run change nothing: no entry.
    expect((await call('GET', `/campaigns/${campaignId}`)).status).toBe(200);
    expect((await call('POST', `/campaigns/${campaignId}/launch?dryRun=true`)).status).not.toBe(404);
  }, 90_000);
  afterAll(async () => {
    await runtime?.close();
  });

  it('lists every call newest first with the key, the source address, the action and the outcome', async () => {
    const { entries, nextCursor } = await auditLog();
    expect(nextCursor).toBeNull();
    expect(entries.map((entry) => entry.action)).toEqual([...done].reverse().map((call) => call.action));
    for (const [index, expected] of [...done].reverse().entries()) {
      const entry = entries[index]!;
      expect(entry).toEqual({
        entryId: expect.stringMatching(/^aud_\d{8}T\d{9}Z_[0-9a-f]{16}$/),
        at: expect.any(String),
        actor: { kind: 'credential', credentialId: key.credentialId, credentialKind: 'broadcast-api-key' },
        action: expected.action,
        method: 'POST',
        path: expect.stringMatching(/^\/prod\/api\/v2\/broadcast\/public\//),
        target: expected.target,
        sourceIp: expect.stringMatching(/127\.0\.0\.1|::1/),
        statusCode: expected.statusCode,
        outcome: expected.statusCode < 400 ? 'succeeded' : 'refused',
        ...(expected.errorCode === undefined ? {} : { errorCode: expected.errorCode }),
        requestId: expect.any(String),
      });
      expect(entry).not.toHaveProperty('organizationId');
    }
    expect(entries[0]!.errorCode).toEqual(expect.any(String));
  });

  it('filters by action and by actor, and pages with the cursor', async () => {
    expect((await auditLog('?action=cancelCampaign')).entries.map((entry) => entry.action)).toEqual(['cancelCampaign']);
    expect((await auditLog(`?actorId=${key.credentialId}&action=launchCampaign`)).entries.map((entry) => entry.outcome)).toEqual(['refused']);
    expect((await auditLog(`?actorId=${key.credentialId}`)).entries).toHaveLength(done.length);
    expect((await auditLog('?actorId=psn_00000000000000000000')).entries).toEqual([]);
    const first = await auditLog('?limit=3');
    expect(first.entries).toHaveLength(3);
    const second = await auditLog(`?limit=3&cursor=${first.nextCursor}`);
    expect([...first.entries, ...second.entries].map((entry) => entry.action)).toEqual([...done].reverse().map((call) => call.action));
  });

  it("shows another organization's key none of them, and its own calls only", async () => {
    const other = await issueKey(runtime.demo.otherOrg.organizationId);
    expect((await auditLog('', other.secret)).entries).toEqual([]);
    expect((await auditLog(`?actorId=${key.credentialId}`, other.secret)).entries).toEqual([]);
    // Another organization's actor id reads exactly as one that does not exist.
    expect(await auditLog(`?actorId=${other.credentialId}`)).toEqual(await auditLog('?actorId=cred_doesNotExist'));
    expect((await call('POST', '/audiences', { name: 'Theirs' }, other.secret)).status).toBe(201);
    expect((await auditLog('', other.secret)).entries.map((entry) => [entry.action, entry.actor.credentialId])).toEqual([
      ['createAudience', other.credentialId],
    ]);
    expect((await auditLog()).entries).toHaveLength(done.length);
  });

  it('names the field of a bad query, refuses a foreign cursor, and a key bound to a sender', async () => {
    const bad = await call('GET', '/audit-log?limit=0');
    expect([bad.status, bad.body.data.error.code, bad.body.message]).toEqual([
      400,
      'VALIDATION_FAILED',
      expect.stringContaining('limit must be a whole number from 1 to 100'),
    ]);
    const badAction = await call('GET', '/audit-log?action=drop%20table');
    expect([badAction.status, badAction.body.message]).toEqual([400, expect.stringContaining('action must be an operation name')]);
    const cursor = await call('GET', '/audit-log?cursor=bm90LWEtY3Vyc29y');
    expect([cursor.status, cursor.body.data.error.code]).toEqual([400, 'INVALID_CURSOR']);
    const bound = await issueKey(runtime.demo.organizationId, DEMO.sender1);
    const refused = await call('GET', '/audit-log', undefined, bound.secret);
    expect([refused.status, refused.body.data.error.code]).toEqual([403, 'OUTSIDE_KEY_SCOPE']);
  });
});
