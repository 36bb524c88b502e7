/**
 * What generate-key leaves behind (docs/FREEFORM-AND-EARLIER.md "generate-key"; issue 23 item 7),
 * over real HTTP:
 *
 * - live minted keys per organization are capped (GENERATED_KEYS_PER_ORGANIZATION, 3 here): past it
 *   409 GENERATED_KEY_LIMIT_REACHED naming the cap; revoking one frees its slot;
 * - the minted keys of one sender share one rate bucket, whichever key calls;
 * - turning generation off revokes every minted key in the same command: each is then refused as
 *   an unknown key on every route, and turning generation on again revives none.
 *
 * generate-key allows 5 requests a minute per source IP, so the mints come from several loopback
 * addresses (127.0.0.x), as callers behind different addresses would.
 */
import http from 'node:http';
import { getServices } from '../../../functions/composition';
import { hashSecret } from '../../../shared/crypto/secret-generator';
import { adminCommands } from '../../../shared/tenancy/admin-commands';
import { startTestRuntime, type TestResponse, type TestRuntime } from '../../support/local-runtime';
import { recordAnswer } from '../../support/openapi-conformance';
import { issueKey, keyHeader, kitEnvironment } from '../broadcast/broadcast-test-kit';
import { PUBLIC_PATH, expectFailureBody, provisionOrganization, type ProvisionedOrganization } from './earlier-operations-kit';

jest.setTimeout(60_000);

const LIMIT = 3;
/** The status class: 30 requests a minute (runtime-contract/route-manifest.ts). */
const STATUS_PER_MINUTE = 30;

describe('generate-key residue', () => {
  let runtime: TestRuntime;
  let org: ProvisionedOrganization;
  let nextAddress = 10;

  beforeAll(async () => {
    runtime = await startTestRuntime({ environment: { ...kitEnvironment, GENERATED_KEYS_PER_ORGANIZATION: String(LIMIT) } });
    org = await provisionOrganization(runtime, { name: 'Minted Residue Ltd', walletMicros: 10_000_000, keyGeneration: true });
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  /** generate-key from a loopback address of its own (a fresh per-IP bucket). */
  function generate(phoneNumber: string): Promise<TestResponse> {
    const localAddress = `127.0.0.${(nextAddress += 1)}`;
    const url = new URL(`${runtime.baseUrl}${PUBLIC_PATH}/generate-key`);
    const payload = JSON.stringify({ phoneNumber });
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          localAddress,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const headers = new Headers(
              Object.entries(response.headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)] as [string, string]])),
            );
            const body = JSON.parse(text);
            recordAnswer({ method: 'POST', path: `${PUBLIC_PATH}/generate-key`, status: response.statusCode!, headers, body, rawText: text });
            resolve({ status: response.statusCode!, headers, body });
          });
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
  }
  const mint = async (): Promise<string> => {
    const response = await generate(org.phoneNumber);
    expect(response.status).toBe(200);
    return response.body.data.apiKey;
  };
  const statusOf = (apiKey: string) => runtime.call('GET', `${PUBLIC_PATH}/status/pub_doesnotexist000000000000`, { headers: keyHeader(apiKey) });
  const sendSingle = (apiKey: string) => runtime.call('POST', `${PUBLIC_PATH}/send-single`, { headers: keyHeader(apiKey), body: {} });
  const credentialIdOf = async (apiKey: string) => (await getServices().tenancy.authenticate('broadcast-api-key', apiKey)).credentialId;

  it('caps live minted keys per organization with 409 naming the cap; revoking one frees its slot; minted keys of one sender share one rate bucket; turning generation off revokes them all', async () => {
    const minted = [await mint(), await mint(), await mint()];
    const refused = await generate(org.phoneNumber);
    const capMessage = `The organization of this number already holds ${LIMIT} keys from generate-key, the most allowed; it must revoke unused ones before another can be generated`;
    expectFailureBody(refused, 409, capMessage, '/generate-key');
    expect(refused.body.data.error.code).toBe('GENERATED_KEY_LIMIT_REACHED');
    expect(await getServices().tenancy.admin.listGeneratedKeys({ organizationId: org.organizationId })).toHaveLength(LIMIT);

    await adminCommands['revoke-generated-key'].run(getServices().tenancy, { org: org.organizationId, 'credential-id': await credentialIdOf(minted[0]!) });
    const replacement = await mint();
    expect((await generate(org.phoneNumber)).status).toBe(409);

    // One bucket for the sender's minted keys: what one spends, the other cannot.
    for (let call = 0; call < STATUS_PER_MINUTE; call += 1) expect((await statusOf(minted[1]!)).status).toBe(404);
    const throttled = await statusOf(minted[2]!);
    expect(throttled.status).toBe(429);
    expect(throttled.body.data.error.code).toBe('RATE_LIMITED');
    // An operator's key bound to the same number keeps its own bucket.
    const operatorKey = (await issueKey(org.organizationId, org.phoneNumber)).secret;
    expect((await statusOf(operatorKey)).status).toBe(404);

    // Generation off: every minted key is revoked in that command and refused as an unknown key.
    const turnedOff = await adminCommands['set-key-generation'].run(getServices().tenancy, { org: org.organizationId, enabled: 'false' });
    expect(turnedOff).toMatchObject({ keyGenerationEnabled: false });
    expect([...turnedOff.revokedGeneratedKeys].sort()).toEqual((await Promise.all([minted[1]!, minted[2]!, replacement].map(hashedIdOf))).sort());
    for (const apiKey of [...minted, replacement]) {
      // The status route is keyed at the gateway: the revoked key is no key of the usage plan.
      const status = await statusOf(apiKey);
      expect(status.status).toBe(401);
      expect(status.body).toMatchObject({ status: false, status_code: 401, message: 'Missing or invalid API key' });
      // The earlier routes answer an unknown key with the contract's 400.
      expectFailureBody(await sendSingle(apiKey), 400, 'User is not signed up yet', '/send-single');
    }
    expect((await getServices().tenancy.admin.listGeneratedKeys({ organizationId: org.organizationId })).every((key) => key.revokedAt !== null)).toBe(true);
    expect((await statusOf(operatorKey)).status).toBe(404);

    // On again: the old keys stay revoked, and the freed slots allow new ones.
    await adminCommands['set-key-generation'].run(getServices().tenancy, { org: org.organizationId, enabled: 'true' });
    expect((await statusOf(minted[1]!)).status).toBe(401);
    const fresh = await mint();
    expect((await sendSingle(fresh)).status).toBe(400);
    expect((await sendSingle(fresh)).body.message).not.toBe('User is not signed up yet');
  });

  /** The credential id of a minted key, from its stored hash (its key no longer authenticates). */
  async function hashedIdOf(apiKey: string): Promise<string> {
    return (await getServices().tenancy.repository.getCredentialByHash(hashSecret(apiKey)))!.credentialId;
  }
});
