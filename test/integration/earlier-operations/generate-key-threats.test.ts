/**
 * The generate-key threat (docs/FREEFORM-AND-EARLIER.md, "Threat model"): a business's sender number
 * is public, and generate-key needs no credential. Proven here over real HTTP:
 *
 * - a number of an organization that has not turned key generation on answers exactly like an
 *   unknown number (the contract's "not found or not connected"), and nothing is issued;
 * - turned on (through the operators' command), the minted key sends with send-single, send-bulk
 *   and send-bulk-standard from its number, and does nothing else: send-template-broadcast,
 *   send-freeform, phone-numbers and templates are 403; status of a job it did not create is 404;
 * - an operator-bound key reads the status of its own number's jobs only;
 * - the organization lists minted keys (nothing secret) and revokes one; the revoked key is answered
 *   exactly like an unknown key on every route.
 *
 * generate-key allows 5 requests a minute per source IP; this file makes 4 (all from 127.0.0.1), so
 * it stays within the limit whichever minutes they fall in.
 */
import { getServices } from '../../../functions/composition';
import type { BroadcastJob } from '../../../shared/broadcast/broadcast-job';
import { adminCommands } from '../../../shared/tenancy/admin-commands';
import { eventually, startTestRuntime, type TestResponse, type TestRuntime } from '../../support/local-runtime';
import { DEMO, issueKey, jobCount, keyHeader, kitEnvironment, orderUpdate, recipients } from '../broadcast/broadcast-test-kit';
import { OUTSIDE_SCOPE, PUBLIC_PATH, expectFailureBody, provisionOrganization, walletMicros, type ProvisionedOrganization } from './earlier-operations-kit';

jest.setTimeout(30_000);

const notConnected = (phoneNumber: string) => `Phone number ${phoneNumber} was not found or is not connected to an active business account`;
/** Well-formed, never issued. */
const UNKNOWN_KEY = `wbk_${'A'.repeat(43)}`;

describe('generate-key threat model', () => {
  let runtime: TestRuntime;
  let org: ProvisionedOrganization;
  /** Minted for `org` once it turned generation on. */
  let mintedKey: string;

  beforeAll(async () => {
    runtime = await startTestRuntime({ environment: { ...kitEnvironment } });
    org = await provisionOrganization(runtime, { name: 'Public Number Inc', walletMicros: 10_000_000 });
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  const generate = (phoneNumber: string) => runtime.call('POST', `${PUBLIC_PATH}/generate-key`, { body: { phoneNumber } });
  const call = (method: 'GET' | 'POST', path: string, apiKey: string, body?: unknown) =>
    runtime.call(method, `${PUBLIC_PATH}${path}`, { headers: keyHeader(apiKey), ...(body === undefined ? {} : { body }) });
  const earlierBody = (toPhoneNumber: string) => ({
    templateName: 'order_update',
    templateLanguage: 'en_US',
    templateType: 'UTILITY',
    countryCode: '44',
    toPhoneNumber,
    templateParams: ['Ada', 'A-1'],
  });
  const bulkBody = (broadcastName: string, numbers: string[]) => ({
    broadcastName,
    templateName: 'order_update',
    templateLanguage: 'en_US',
    templateType: 'UTILITY',
    globalTemplateParams: ['Ada', 'A-1'],
    data: numbers.map((toPhoneNumber) => ({ countryCode: '44', toPhoneNumber })),
  });
  /** What a client can compare between two answers (time and request id differ by nature). */
  const comparable = (response: TestResponse) => {
    const { timestamp: _t, requestId: _r, ...body } = typeof response.body === 'object' && response.body !== null ? response.body : { text: response.body };
    return { status: response.status, body };
  };
  const recordJob = (jobId: string, organizationId: string, fromPhoneNumber: string, createdByCredentialId?: string) => {
    const job: BroadcastJob = {
      kind: 'template',
      jobId,
      organizationId,
      broadcastName: jobId,
      exposed: true,
      wabaId: DEMO.wabaId,
      phoneNumberId: fromPhoneNumber === DEMO.sender1 ? DEMO.phoneNumberId1 : DEMO.phoneNumberId2,
      fromPhoneNumber,
      ...(createdByCredentialId ? { createdByCredentialId } : {}),
      template: { name: 'order_update', language: 'en_US', category: 'UTILITY', id: DEMO.templateIds.order_update },
      totalRecipients: 1001,
      totalChunks: 2,
      chunkSize: 1000,
      createdAt: new Date().toISOString(),
    };
    return getServices().broadcast.broadcasts.createJob(job, [1000, 1]);
  };

  it('answers a number of an organization without key generation exactly like an unknown number, and issues nothing', async () => {
    const tenancy = getServices().tenancy;
    expect((await tenancy.repository.getOrganization(org.organizationId))!.keyGenerationEnabled).toBeUndefined();
    const credentialsBefore = (await tenancy.repository.listCredentials(org.organizationId)).length;

    const offResponse = await generate(org.phoneNumber);
    const unknownResponse = await generate('15559999997');
    expectFailureBody(offResponse, 400, notConnected(org.phoneNumber), '/generate-key');
    expectFailureBody(unknownResponse, 400, notConnected('15559999997'), '/generate-key');
    // Same status, code and wording: only the number the caller sent differs.
    const normalized = (response: TestResponse, phoneNumber: string) => JSON.parse(JSON.stringify(comparable(response)).replaceAll(phoneNumber, '<n>'));
    expect(normalized(offResponse, org.phoneNumber)).toEqual(normalized(unknownResponse, '15559999997'));
    expect((await tenancy.repository.listCredentials(org.organizationId)).length).toBe(credentialsBefore);
  });

  it('once the organization turns it on, the minted key sends with send-single, send-bulk and send-bulk-standard from its number', async () => {
    const turnedOn = await adminCommands['set-key-generation'].run(getServices().tenancy, { org: org.organizationId, enabled: 'true' });
    expect(turnedOn.keyGenerationEnabled).toBe(true);
    const response = await generate(org.phoneNumber);
    expect(response.status).toBe(200);
    mintedKey = response.body.data.apiKey;
    const walletBefore = await walletMicros(org.organizationId);

    const single = await call('POST', '/send-single', mintedKey, earlierBody('7700900701'));
    expect(single.status).toBe(200);
    expect(single.body.data.data).toMatchObject({ total_contacts: 1, failed_contacts: 0, estimated_cost: 0.022 });
    const bulk = await call('POST', '/send-bulk', mintedKey, bulkBody('minted bulk', ['7700900702', '7700900703']));
    expect(bulk.status).toBe(200);
    expect(bulk.body.data.data).toMatchObject({ total_contacts: 2, failed_contacts: 0 });
    const standard = await call('POST', '/send-bulk-standard', mintedKey, bulkBody('minted standard', ['7700900704']));
    expect(standard.status).toBe(200);
    expect(await walletMicros(org.organizationId)).toBe(walletBefore - 4 * 22_000);

    const delivered = await eventually(
      () => Promise.resolve(runtime.sandbox!.acceptedMessages().filter((message) => /^44770090070[1-4]$/.test(message.recipient))),
      (messages) => messages.length === 4,
      20_000,
    );
    expect(new Set(delivered.map((message) => message.phoneNumberId))).toEqual(new Set([org.phoneNumberId]));
  });

  it('refuses the minted key everywhere else: 403 on send-template-broadcast, send-freeform, phone-numbers and templates; nothing queued', async () => {
    const jobsBefore = await jobCount(org.organizationId);
    const refusals: Array<[string, Promise<TestResponse>, string]> = [
      [
        'send-template-broadcast',
        call('POST', '/send-template-broadcast', mintedKey, orderUpdate(recipients(2), { fromPhoneNumber: org.phoneNumber })),
        '/send-template-broadcast',
      ],
      [
        'send-freeform',
        call('POST', '/send-freeform', mintedKey, { fromPhoneNumber: org.phoneNumber, toPhoneNumber: '447700900705', type: 'text', text: 'Hi' }),
        '/send-freeform',
      ],
      ['phone-numbers', call('GET', '/phone-numbers', mintedKey), '/phone-numbers'],
      ['templates', call('GET', `/templates?phone_number=${org.phoneNumber}`, mintedKey), '/templates'],
      ['templates', call('GET', `/templates?phone_number=${DEMO.sender1}`, mintedKey), '/templates'],
    ];
    for (const [name, pending] of refusals) {
      const response = await pending;
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({
        status: false,
        status_code: 403,
        message: `${OUTSIDE_SCOPE}${name}`,
        data: { error: { code: 'OUTSIDE_KEY_SCOPE', message: `${OUTSIDE_SCOPE}${name}` } },
      });
    }
    expect(await jobCount(org.organizationId)).toBe(jobsBefore);
    expect(runtime.sandbox!.acceptedMessages().some((message) => message.recipient === '447700900705')).toBe(false);
  });

  it('status: a minted key reads only jobs it created; a bound key only its number’s; another organization’s job stays 401', async () => {
    // Demo Retail (generation on in the demo seed): a key minted for sender 2.
    const minted = await generate(DEMO.sender2);
    expect(minted.status).toBe(200);
    const demoMintedKey: string = minted.body.data.apiKey;
    const demoOrganizationId = runtime.demo.organizationId;
    const [listed] = (await adminCommands['list-generated-keys'].run(getServices().tenancy, { org: demoOrganizationId })).slice(-1);
    const operatorBound = await issueKey(demoOrganizationId, DEMO.sender2);

    await recordJob('pub_threat_sender1', demoOrganizationId, DEMO.sender1);
    await recordJob('pub_threat_sender2', demoOrganizationId, DEMO.sender2, operatorBound.credentialId);
    await recordJob('pub_threat_own', demoOrganizationId, DEMO.sender2, listed!.credentialId);
    await recordJob('pub_threat_foreign', org.organizationId, org.phoneNumber);

    const status = async (apiKey: string, jobId: string) => (await call('GET', `/status/${jobId}`, apiKey)).status;
    expect(await status(demoMintedKey, 'pub_threat_own')).toBe(200);
    expect(await status(demoMintedKey, 'pub_threat_sender1')).toBe(404);
    expect(await status(demoMintedKey, 'pub_threat_sender2')).toBe(404);
    expect(await status(demoMintedKey, 'pub_threat_foreign')).toBe(401);
    const outOfScope = await call('GET', '/status/pub_threat_sender1', demoMintedKey);
    expect(outOfScope.body).toMatchObject({ message: 'Job pub_threat_sender1 does not exist', data: { error: { code: 'JOB_NOT_FOUND' } } });

    // The operator-bound key of sender 2: its number's jobs, not sender 1's.
    expect(await status(operatorBound.secret, 'pub_threat_sender2')).toBe(200);
    expect(await status(operatorBound.secret, 'pub_threat_own')).toBe(200);
    expect(await status(operatorBound.secret, 'pub_threat_sender1')).toBe(404);
    // The unbound key sees every job of its organization.
    expect(await status(runtime.demo.apiKey, 'pub_threat_sender1')).toBe(200);
  });

  it('lists minted keys without secrets; a revoked key is answered like an unknown key on every route', async () => {
    const tenancy = getServices().tenancy;
    const listed = await adminCommands['list-generated-keys'].run(tenancy, { org: org.organizationId });
    expect(listed).toEqual([
      {
        credentialId: expect.stringMatching(/^cred_/),
        boundPhoneNumber: org.phoneNumber,
        createdAt: expect.any(String),
        sourceIpHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        revokedAt: null,
      },
    ]);
    // Only minted keys (not the organization's operator-issued key), and nothing secret.
    expect(JSON.stringify(listed)).not.toContain(mintedKey);
    expect(JSON.stringify(listed)).not.toContain('127.0.0.1');

    const revoked = await adminCommands['revoke-generated-key'].run(tenancy, { org: org.organizationId, 'credential-id': listed[0]!.credentialId });
    expect(revoked.revokedAt).toEqual(expect.any(String));
    expect((await adminCommands['list-generated-keys'].run(tenancy, { org: org.organizationId }))[0]!.revokedAt).toBe(revoked.revokedAt);

    const routes: Array<['GET' | 'POST', string, unknown?]> = [
      ['GET', '/phone-numbers'],
      ['GET', `/templates?phone_number=${org.phoneNumber}`],
      ['POST', '/send-template-broadcast', orderUpdate(recipients(1), { fromPhoneNumber: org.phoneNumber })],
      ['GET', '/status/pub_threat_foreign'],
      ['POST', '/send-freeform', { fromPhoneNumber: org.phoneNumber, toPhoneNumber: '447700900706', type: 'text', text: 'Hi' }],
      ['POST', '/send-single', earlierBody('7700900707')],
      ['POST', '/send-bulk', bulkBody('after revocation', ['7700900708'])],
      ['POST', '/send-bulk-standard', bulkBody('after revocation 2', ['7700900709'])],
    ];
    for (const [method, path, body] of routes) {
      const withRevoked = await call(method, path, mintedKey, body);
      const withUnknown = await call(method, path, UNKNOWN_KEY, body);
      expect([path, comparable(withRevoked)]).toEqual([path, comparable(withUnknown)]);
      expect(withRevoked.status).toBeGreaterThanOrEqual(400);
      expect(withRevoked.status).toBeLessThan(500);
    }
  });
});
