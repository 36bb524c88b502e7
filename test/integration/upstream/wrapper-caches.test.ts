/**
 * The wrapper's caches through the local runtime (gateway → upstream-wrapper handler → dynalite →
 * sandbox): changes an operator makes in this process apply to the very next wrapped request,
 * and one organization's cached records never answer another's request.
 */
import { getServices } from '../../../functions/composition';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { demoIds, wrapperCall } from './upstream-kit';

let runtime: TestRuntime;
let profilePath: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  profilePath = `/phone-numbers/${runtime.demo.phoneNumberIds[0]}/business-profile`;
});
afterAll(async () => {
  await runtime?.close();
});

test('a revoked access token is refused on the next request, although it was just cached', async () => {
  const { organizationId } = runtime.demo;
  const issued = await getServices().tenancy.admin.issueCredential({ organizationId, kind: 'upstream-access-token' });
  for (let request = 0; request < 3; request += 1) expect((await wrapperCall(runtime, 'GET', profilePath, { token: issued.secret })).status).toBe(200);

  await getServices().tenancy.admin.revokeCredential({ organizationId, credentialId: issued.credential.credentialId });

  expect((await wrapperCall(runtime, 'GET', profilePath, { token: issued.secret })).status).toBe(401);
});

test("another organization never gets the demo organization's cached number or account", async () => {
  const other = runtime.demo.otherOrg;
  expect((await wrapperCall(runtime, 'GET', profilePath)).status).toBe(200);
  expect((await wrapperCall(runtime, 'GET', `/wabas/${runtime.demo.wabaId}/templates`)).status).toBe(200);

  expect((await wrapperCall(runtime, 'GET', profilePath, { token: other.accessToken })).status).toBe(404);
  expect((await wrapperCall(runtime, 'GET', `/wabas/${runtime.demo.wabaId}/templates`, { token: other.accessToken })).status).toBe(404);
  expect((await wrapperCall(runtime, 'GET', `/phone-numbers/${other.phoneNumberId}/business-profile`, { token: other.accessToken })).status).toBe(200);
});

test('a reconnected account (rotated Meta token) is used on the next request', async () => {
  const { organizationId, wabaId } = runtime.demo;
  const account = (await getServices().tenancy.repository.getBusinessAccount(organizationId, wabaId))!;
  const reconnect = (accessToken: string) =>
    getServices().tenancy.admin.connectBusinessAccount({ organizationId, wabaId, businessId: account.businessId, name: account.name, accessToken });
  expect((await wrapperCall(runtime, 'GET', profilePath)).status).toBe(200);

  // A token the sandbox does not know: Meta's OAuth error, and the account is flagged.
  await reconnect('EAAG-rotated-but-wrong');
  expect((await wrapperCall(runtime, 'GET', profilePath)).status).not.toBe(200);
  expect((await getServices().tenancy.repository.getBusinessAccount(organizationId, wabaId))!.status).toBe('needs-authorization');

  await reconnect(demoIds.upstreamToken);
  expect((await wrapperCall(runtime, 'GET', profilePath)).status).toBe(200);
});
