/**
 * Tenant isolation over every id kind of every surface, in one table.
 *
 * Each row names one kind of id a caller can present (in a path, a query or a body) and one
 * request that carries it. The demo organization presents three values of that kind: its own
 * (must work: the row can fail), one that belongs to the other organization, and one that belongs
 * to nobody. The foreign id must get exactly the answer of the unknown one (no oracle: a caller
 * cannot tell "exists elsewhere" from "does not exist"), and it must change nothing.
 */
import { adminCommands } from '../../../shared/tenancy/admin-commands';
import { getServices } from '../../../functions/composition';
import { startTestRuntime, type TestResponse, type TestRuntime } from '../../support/local-runtime';
import { multipartCall, PNG_1X1, wrapperCall } from '../upstream/upstream-kit';
import { expectNothingInternal } from './surface-shapes';

jest.setTimeout(180_000);

const BROADCAST = '/prod/api/v2/broadcast/public';

let runtime: TestRuntime;
type Values = { own: string; foreign: string; unknown: string };
const ids: Record<string, Values> = {};
/** The other organization's key made through POST /api-keys: the demo organization's DELETE of its id must leave it working. */
let otherOrganizationKey = '';

const broadcastCall = (method: string, path: string, body?: unknown, key = runtime.demo.apiKey) =>
  runtime.call(method, `${BROADCAST}${path}`, { headers: { 'x-api-key': key }, body });
const v1Call = (method: string, path: string, body?: unknown, key = runtime.demo.v1ApiKey) =>
  runtime.call(method, `/v1${path}`, { headers: { authorization: `Bearer ${key}` }, body });
const upstreamSend = (message: Record<string, unknown>) =>
  wrapperCall(runtime, 'POST', `/phone-numbers/${runtime.demo.phoneNumberIds[0]}/messages`, {
    body: { messaging_product: 'whatsapp', to: '15557774000', ...message },
  });
const orgCall = (body: unknown, token = runtime.demo.orgToken) =>
  runtime.call('POST', '/v2/organizations/public/remove-employee-bulk', { headers: { authorization: `Bearer ${token}` }, body });

const recipientsOf = (count: number, first: number) =>
  Array.from({ length: count }, (_, index) => ({ countryCode: '91', toPhoneNumber: String(first + index) }));

/** A broadcast of 1,001 recipients answers 202 with the job id. */
async function bigBroadcast(key: string, from: string, first: number): Promise<string> {
  const response = await broadcastCall(
    'POST',
    '/send-template-broadcast',
    {
      broadcastName: `matrix-${first}`,
      fromPhoneNumber: from,
      templateName: 'order_update',
      templateLanguage: 'en_US',
      templateType: 'UTILITY',
      globalTemplateParams: ['Ada', 'A-1'],
      data: recipientsOf(1001, first),
    },
    key,
  );
  if (response.status !== 202) throw new Error(`broadcast not accepted: ${JSON.stringify(response.body).slice(0, 300)}`);
  return response.body.data.jobId;
}

beforeAll(async () => {
  runtime = await startTestRuntime();
  const { demo } = runtime;
  const other = demo.otherOrg;

  // Jobs: one per organization (the other organization's template: appointment_reminder, one parameter).
  const otherJob = await broadcastCall(
    'POST',
    '/send-template-broadcast',
    {
      broadcastName: 'matrix-other',
      fromPhoneNumber: other.phoneNumber,
      templateName: 'appointment_reminder',
      templateLanguage: 'en_US',
      templateType: 'UTILITY',
      globalTemplateParams: ['Monday'],
      data: recipientsOf(1001, 9_100_000_000),
    },
    other.apiKey,
  );
  if (otherJob.status !== 202) throw new Error(`other organization's broadcast not accepted: ${JSON.stringify(otherJob.body).slice(0, 300)}`);
  const ownJob = await bigBroadcast(demo.apiKey, demo.phoneNumbers[0]!, 9_200_000_000);
  ids.jobId = { own: ownJob, foreign: otherJob.body.data.jobId, unknown: 'pub_doesNotExist0000000' };
  ids.senderNumber = { own: demo.phoneNumbers[0]!, foreign: other.phoneNumber, unknown: '15559999999' };

  // Campaigns: one draft per organization (docs/CAMPAIGNS.md), to its v1 contacts.
  const campaign = async (key: string, from: string, templateName: string, templateParams: string[]) => {
    const created = await broadcastCall(
      'POST',
      '/campaigns',
      {
        name: 'matrix',
        fromPhoneNumber: from,
        templateName,
        templateLanguage: 'en_US',
        templateType: 'UTILITY',
        audience: { audienceIds: ['contacts'] },
        templateParams,
      },
      key,
    );
    if (created.status !== 201) throw new Error(`campaign not created: ${JSON.stringify(created.body).slice(0, 300)}`);
    return created.body.data.campaignId as string;
  };
  ids.campaignId = {
    own: await campaign(demo.apiKey, demo.phoneNumbers[0]!, 'order_update', ['Ada', 'A-1']),
    foreign: await campaign(other.apiKey, other.phoneNumber, 'appointment_reminder', ['Monday']),
    unknown: 'cmp_doesNotExist0000000',
  };

  // v1 contacts and conversations: one of each per organization.
  const ownContact = await v1Call('POST', '/contacts', { phoneNumber: '447700900555', name: 'Own' });
  const otherContact = await v1Call('POST', '/contacts', { phoneNumber: '447700900556', name: 'Theirs' }, other.v1ApiKey);
  ids.contactId = { own: ownContact.body.data.id, foreign: otherContact.body.data.id, unknown: 'ct_01ARZ3NDEKTSV4RRFFQ69G5FAV' };
  const ownConversation = await v1Call('POST', '/conversations', { contactId: ids.contactId.own, senderPhoneNumber: demo.phoneNumbers[0] });
  const otherConversation = await v1Call('POST', '/conversations', { contactId: ids.contactId.foreign, senderPhoneNumber: other.phoneNumber }, other.v1ApiKey);
  ids.conversationId = { own: ownConversation.body.data.id, foreign: otherConversation.body.data.id, unknown: 'cv_01ARZ3NDEKTSV4RRFFQ69G5FAV' };

  // Employees: an address only the other organization has.
  const { tenancy } = getServices();
  await adminCommands['add-employee'].run(tenancy, { org: other.organizationId, email: 'only-theirs@other.example', role: 'member' });
  await adminCommands['add-employee'].run(tenancy, { org: demo.organizationId, email: 'only-ours@demo.example', role: 'member' });
  ids.employeeEmail = { own: 'only-ours@demo.example', foreign: 'only-theirs@other.example', unknown: 'nobody@nowhere.example' };

  // /upstream: business accounts, numbers, templates, media, flows, QR codes of each organization.
  ids.wabaId = { own: demo.wabaId, foreign: other.wabaId, unknown: '119999999999999' };
  ids.phoneNumberId = { own: demo.phoneNumberIds[0]!, foreign: other.phoneNumberId, unknown: '129999999999999' };
  ids.templateId = { own: '130000000000001', foreign: '130000000000011', unknown: '139999999999999' };
  const media = async (phoneNumberId: string, token: string) =>
    (await multipartCall(runtime, `/phone-numbers/${phoneNumberId}/media`, [{ name: 'file', value: PNG_1X1, filename: 'a.png', type: 'image/png' }], token))
      .body.id as string;
  ids.mediaId = {
    own: await media(demo.phoneNumberIds[0]!, demo.accessToken),
    foreign: await media(other.phoneNumberId, other.accessToken),
    unknown: '149999999999999',
  };
  const flow = async (wabaId: string, token: string) =>
    (await wrapperCall(runtime, 'POST', `/wabas/${wabaId}/flows`, { token, body: { name: `flow_${wabaId}`, categories: ['OTHER'] } })).body.id as string;
  ids.flowId = { own: await flow(demo.wabaId, demo.accessToken), foreign: await flow(other.wabaId, other.accessToken), unknown: '159999999999999' };
  const qr = async (phoneNumberId: string, token: string) =>
    (await wrapperCall(runtime, 'POST', `/phone-numbers/${phoneNumberId}/qr-codes`, { token, body: { prefilled_message: 'Hi', generate_qr_image: 'SVG' } }))
      .body.code as string;
  const sent = async (phoneNumberId: string, token: string) =>
    (await wrapperCall(runtime, 'POST', `/phone-numbers/${phoneNumberId}/messages`, { token, body: { to: '15557773000', type: 'text', text: { body: 'Hi' } } }))
      .body.messages[0].id as string;
  ids.messageId = {
    own: await sent(demo.phoneNumberIds[0]!, demo.accessToken),
    foreign: await sent(other.phoneNumberId, other.accessToken),
    unknown: 'wamid.HBgLMTU1NTk5OTk5OTkVAgARGBI5QTNDQTVCM0Q0Q0Q2RTY3RTcA',
  };
  ids.templateName = { own: 'order_update', foreign: 'appointment_reminder', unknown: 'no_such_template' };
  ids.qrCodeId = {
    own: await qr(demo.phoneNumberIds[0]!, demo.accessToken),
    foreign: await qr(other.phoneNumberId, other.accessToken),
    unknown: 'QRDOESNOTEXIST',
  };

  // Saved audiences: one per organization with a member each, and one of ours for the DELETE row (the last row of the kind).
  const audience = async (key: string, name: string) => {
    const created = await broadcastCall('POST', '/audiences', { name }, key);
    const audienceId = created.body.data.audienceId as string;
    await broadcastCall('POST', `/audiences/${audienceId}/members`, { members: [{ countryCode: '91', toPhoneNumber: '9400000001' }] }, key);
    return audienceId;
  };
  ids.audienceId = {
    own: await audience(demo.apiKey, 'matrix-own'),
    foreign: await audience(other.apiKey, 'matrix-theirs'),
    unknown: 'aud_01ARZ3NDEKTSV4RRFFQ69G5FAV',
  };
  ids.deletableAudienceId = { own: await audience(demo.apiKey, 'matrix-own-deleted'), foreign: ids.audienceId.foreign, unknown: ids.audienceId.unknown };

  // People (docs/PEOPLE.md "People"): one invited per organization.
  const person = async (key: string, email: string) =>
    (await broadcastCall('POST', '/people', { email, role: 'viewer' }, key)).body.data.person.personId as string;
  ids.personId = {
    own: await person(demo.apiKey, 'matrix-ours@demo.example'),
    foreign: await person(other.apiKey, 'matrix-theirs@other.example'),
    unknown: 'psn_00000000000000000000',
  };

  // The organization's own API keys (docs/PEOPLE.md "API keys"): one made per organization through POST /api-keys.
  const apiKey = async (key: string) => (await broadcastCall('POST', '/api-keys', {}, key)).body.data as { credentialId: string; apiKey: string };
  const theirKey = await apiKey(other.apiKey);
  otherOrganizationKey = theirKey.apiKey;
  ids.credentialId = { own: (await apiKey(demo.apiKey)).credentialId, foreign: theirKey.credentialId, unknown: 'cred_01ARZ3NDEKTSV4RRFFQ69G5FAV' };
}, 120_000);

afterAll(async () => runtime?.close());

interface Row {
  surface: string;
  /** The request that carries the id, for the test's name. */
  name: string;
  idKind: keyof typeof ids | string;
  request: (id: string) => Promise<TestResponse>;
  /**
   * Where the contract itself words the foreign case apart from the unknown one (the status
   * endpoint: 401 for another organization's job, 404 for a job that does not exist), the
   * foreign answer it fixes; otherwise the foreign id must be answered as the unknown one.
   */
  contractForeignAnswer?: { status: number; code: string };
}

/** An answer without what differs between two calls for reasons other than the id: request ids, times, the id itself. */
const withoutVolatile = (body: any, id: string): unknown =>
  JSON.parse(
    JSON.stringify(body ?? null)
      .split(id)
      .join('<id>')
      .replace(/"(requestId|timestamp|fbtrace_id)":"[^"]*"/g, '"$1":"<volatile>"'),
  );

const rows: Row[] = [
  // Broadcast surface.
  {
    surface: 'broadcast',
    idKind: 'jobId',
    name: 'GET /status/{jobId}',
    request: (id) => broadcastCall('GET', `/status/${id}`),
    contractForeignAnswer: { status: 401, code: 'UNAUTHORIZED' },
  },
  { surface: 'broadcast', idKind: 'senderNumber', name: 'GET /templates?phone_number', request: (id) => broadcastCall('GET', `/templates?phone_number=${id}`) },
  { surface: 'broadcast', idKind: 'campaignId', name: 'GET /campaigns/{campaignId}', request: (id) => broadcastCall('GET', `/campaigns/${id}`) },
  {
    surface: 'broadcast',
    idKind: 'senderNumber',
    name: 'POST /send-freeform fromPhoneNumber',
    request: (id) => broadcastCall('POST', '/send-freeform', { fromPhoneNumber: id, countryCode: '91', toPhoneNumber: '9300000001', type: 'text', text: 'Hi' }),
  },
  {
    surface: 'broadcast',
    idKind: 'senderNumber',
    name: 'POST /send-template-broadcast fromPhoneNumber',
    request: (id) =>
      broadcastCall('POST', '/send-template-broadcast', {
        broadcastName: `matrix-send-${Math.random()}`,
        fromPhoneNumber: id,
        templateName: 'order_update',
        templateLanguage: 'en_US',
        templateType: 'UTILITY',
        globalTemplateParams: ['Ada', 'A-1'],
        data: recipientsOf(1, 9_300_000_100),
      }),
  },
  { surface: 'broadcast', idKind: 'audienceId', name: 'GET /audiences/{audienceId}', request: (id) => broadcastCall('GET', `/audiences/${id}`) },
  {
    surface: 'broadcast',
    idKind: 'audienceId',
    name: 'GET /audiences/{audienceId}/members',
    request: (id) => broadcastCall('GET', `/audiences/${id}/members`),
  },
  {
    surface: 'broadcast',
    idKind: 'audienceId',
    name: 'GET /audiences/{audienceId}/members?format=csv',
    request: (id) => broadcastCall('GET', `/audiences/${id}/members?format=csv`),
  },
  {
    surface: 'broadcast',
    idKind: 'audienceId',
    name: 'POST /audiences/{audienceId}/members',
    request: (id) => broadcastCall('POST', `/audiences/${id}/members`, { members: [{ countryCode: '91', toPhoneNumber: '9400000002' }] }),
  },
  {
    surface: 'broadcast',
    idKind: 'audienceId',
    name: 'DELETE /audiences/{audienceId}/members',
    request: (id) => broadcastCall('DELETE', `/audiences/${id}/members`, { members: [{ countryCode: '91', toPhoneNumber: '9400000003' }] }),
  },
  { surface: 'broadcast', idKind: 'deletableAudienceId', name: 'DELETE /audiences/{audienceId}', request: (id) => broadcastCall('DELETE', `/audiences/${id}`) },
  { surface: 'broadcast', idKind: 'personId', name: 'PATCH /people/{personId}', request: (id) => broadcastCall('PATCH', `/people/${id}`, { role: 'viewer' }) },
  { surface: 'broadcast', idKind: 'credentialId', name: 'DELETE /api-keys/{credentialId}', request: (id) => broadcastCall('DELETE', `/api-keys/${id}`) },
  // Organization administration.
  { surface: 'organization', idKind: 'employeeEmail', name: 'POST remove-employee-bulk emails', request: (id) => orgCall({ emails: [id] }) },
  // v1.
  { surface: 'v1', idKind: 'contactId', name: 'GET /contacts/{contactId}', request: (id) => v1Call('GET', `/contacts/${id}`) },
  { surface: 'v1', idKind: 'contactId', name: 'GET /conversations?contactId', request: (id) => v1Call('GET', `/conversations?contactId=${id}`) },
  { surface: 'v1', idKind: 'conversationId', name: 'GET /conversations/{conversationId}', request: (id) => v1Call('GET', `/conversations/${id}`) },
  {
    surface: 'v1',
    idKind: 'conversationId',
    name: 'PATCH /conversations/{conversationId}',
    request: (id) => v1Call('PATCH', `/conversations/${id}`, { status: 'closed' }),
  },
  {
    surface: 'v1',
    idKind: 'senderNumber',
    name: 'POST /conversations senderPhoneNumber',
    request: (id) => v1Call('POST', '/conversations', { contactId: ids.contactId!.own, senderPhoneNumber: id }),
  },
  // /upstream: one route per id kind in a path.
  { surface: 'upstream', idKind: 'wabaId', name: 'GET /wabas/{wabaId}/templates', request: (id) => wrapperCall(runtime, 'GET', `/wabas/${id}/templates`) },
  {
    surface: 'upstream',
    idKind: 'phoneNumberId',
    name: 'GET /phone-numbers/{phoneNumberId}/business-profile',
    request: (id) => wrapperCall(runtime, 'GET', `/phone-numbers/${id}/business-profile`),
  },
  {
    surface: 'upstream',
    idKind: 'templateId',
    name: 'GET /wabas/{wabaId}/templates/{templateId}',
    request: (id) => wrapperCall(runtime, 'GET', `/wabas/${runtime.demo.wabaId}/templates/${id}`),
  },
  {
    surface: 'upstream',
    idKind: 'mediaId',
    name: 'GET /phone-numbers/{id}/media/{mediaId}',
    request: (id) => wrapperCall(runtime, 'GET', `/phone-numbers/${runtime.demo.phoneNumberIds[0]}/media/${id}`),
  },
  {
    surface: 'upstream',
    idKind: 'flowId',
    name: 'GET /wabas/{wabaId}/flows/{flowId}',
    request: (id) => wrapperCall(runtime, 'GET', `/wabas/${runtime.demo.wabaId}/flows/${id}`),
  },
  // /upstream: ids inside message bodies.
  { surface: 'upstream', idKind: 'mediaId', name: 'POST /messages image.id', request: (id) => upstreamSend({ type: 'image', image: { id } }) },
  {
    surface: 'upstream',
    idKind: 'messageId',
    name: 'POST /messages/read message_id',
    request: (id) => wrapperCall(runtime, 'POST', `/phone-numbers/${runtime.demo.phoneNumberIds[0]}/messages/read`, { body: { message_id: id } }),
  },
  {
    surface: 'upstream',
    idKind: 'messageId',
    name: 'POST /messages context.message_id',
    request: (id) => upstreamSend({ type: 'text', text: { body: 'Re' }, context: { message_id: id } }),
  },
  {
    surface: 'upstream',
    idKind: 'flowId',
    name: 'POST /messages interactive flow_id',
    request: (id) =>
      upstreamSend({
        type: 'interactive',
        interactive: {
          type: 'flow',
          body: { text: 'Sign up' },
          action: { name: 'flow', parameters: { flow_message_version: '3', flow_cta: 'Open', flow_id: id, mode: 'draft' } },
        },
      }),
  },
  {
    surface: 'upstream',
    idKind: 'templateName',
    name: 'POST /messages template.name',
    request: (name) =>
      upstreamSend({
        type: 'template',
        template: {
          name,
          language: { code: 'en_US' },
          components: [
            {
              type: 'body',
              parameters: [
                { type: 'text', text: 'Ada' },
                { type: 'text', text: 'A-1' },
              ],
            },
          ],
        },
      }),
  },
  {
    surface: 'upstream',
    idKind: 'qrCodeId',
    name: 'GET /phone-numbers/{id}/qr-codes/{qrCodeId}',
    request: (id) => wrapperCall(runtime, 'GET', `/phone-numbers/${runtime.demo.phoneNumberIds[0]}/qr-codes/${id}`),
  },
];

describe.each(rows.map((row) => [`${row.surface} ${row.idKind} (${row.name})`, row] as const))('%s', (_name, row) => {
  it('own id works; another organization’s id is answered exactly as an unknown one', async () => {
    const values = ids[row.idKind as string]!;
    const foreign = await row.request(values.foreign);
    const unknown = await row.request(values.unknown);
    expectNothingInternal(foreign);
    expect(foreign.status).toBeGreaterThanOrEqual(400);
    expect(foreign.status).toBeLessThan(500);
    if (row.contractForeignAnswer) {
      expect(foreign.status).toBe(row.contractForeignAnswer.status);
      expect(foreign.body.data.error.code).toBe(row.contractForeignAnswer.code);
      expect(unknown.status).toBe(404);
    } else {
      expect(foreign.status).toBe(unknown.status);
      expect(withoutVolatile(foreign.body, values.foreign)).toEqual(withoutVolatile(unknown.body, values.unknown));
    }

    const own = await row.request(values.own);
    expect(own.status).toBeLessThan(400);
  });
});

describe('a foreign id changes nothing', () => {
  it('the other organization’s employee and conversation are intact after the demo organization’s attempts', async () => {
    const other = runtime.demo.otherOrg;
    const conversation = await v1Call('GET', `/conversations/${ids.conversationId!.foreign}`, undefined, other.v1ApiKey);
    expect(conversation.status).toBe(200);
    expect(conversation.body.data.status).toBe('open');
    const removal = await orgCall({ emails: ['only-theirs@other.example'] }, other.orgToken);
    expect(removal.status).toBe(200);
    const job = await runtime.call('GET', `${BROADCAST}/status/${ids.jobId!.foreign}`, { headers: { 'x-api-key': other.apiKey } });
    expect(job.status).toBe(200);
    const audience = await runtime.call('GET', `${BROADCAST}/audiences/${ids.audienceId!.foreign}`, { headers: { 'x-api-key': other.apiKey } });
    expect(audience.status).toBe(200);
    expect(audience.body.data.memberCount).toBe(1);
    const people = await runtime.call('GET', `${BROADCAST}/people`, { headers: { 'x-api-key': other.apiKey } });
    expect(people.body.data.people).toEqual(expect.arrayContaining([expect.objectContaining({ personId: ids.personId!.foreign, role: 'viewer' })]));
    const theirKey = await runtime.call('GET', `${BROADCAST}/me`, { headers: { 'x-api-key': otherOrganizationKey } });
    expect([theirKey.status, theirKey.body.data.credentialId]).toEqual([200, ids.credentialId!.foreign]);
  });
});
