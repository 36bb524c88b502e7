/**
 * Issue 23 item 8, through the local runtime: opt-outs checked again at send time, matched across
 * Meta's two forms of Brazilian and Mexican mobiles, STOP and START ordered by Meta's timestamp,
 * and an API opt-out a START does not undo (docs/BROADCAST.md "Opt-outs at send time",
 * docs/ORGANIZATIONS-AND-V1.md "Opt-outs"). Customers' keywords arrive as Meta's signed webhooks
 * at /hooks/meta/whatsapp and go through the metaEvents queue to delivery-events, as on AWS.
 */
import { join } from 'node:path';
import { signWebhookBody } from '../../../shared/meta-app/webhook-signature';
import { webhookBody } from '../../support/delivery-fakes';
import { runAdminCli, type AdminCliResult } from '../../support/admin-cli';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import {
  BASE,
  DEMO,
  issueKey,
  keyHeader,
  kitEnvironment,
  orderUpdate,
  readJob,
  recipients,
  waitForTerminal,
  type Recipient,
} from '../broadcast/broadcast-test-kit';

jest.setTimeout(120_000);

let runtime: TestRuntime;
let key: string;

beforeAll(async () => {
  // Scheduled jobs may fire one second after their accept here (300 s on AWS).
  runtime = await startTestRuntime({ environment: { ...kitEnvironment, BROADCAST_SCHEDULE_MIN_LEAD_SECONDS: '1' } });
  key = (await issueKey(runtime.demo.organizationId)).secret;
}, 60_000);
afterAll(async () => {
  await runtime?.close();
});

const v1 = (method: string, path: string, body?: unknown) =>
  runtime.call(method, `/v1${path}`, { headers: { authorization: `Bearer ${runtime.demo.v1ApiKey}` }, ...(body === undefined ? {} : { body }) });
const listed = async () =>
  ((await v1('GET', '/opt-outs?pageSize=100')).body.data as Array<{ phoneNumber: string; source: string }>).map(
    ({ phoneNumber, source }) => `${phoneNumber}:${source}`,
  );
const sentTo = (to: string) => runtime.sandbox!.acceptedMessages().filter((message) => message.recipient === to);
const fullNumber = ({ countryCode, toPhoneNumber }: Recipient) => `${countryCode}${toPhoneNumber}`;

/** A customer's text as Meta posts it (signed with the demo app's secret), sent at `at` (Meta's time: whole seconds); resolves once it is queued. */
async function customerWrites(from: string, text: string, at: Date): Promise<void> {
  const message = { from, id: `wamid.${Math.random().toString(36).slice(2)}`, timestamp: String(at.getTime() / 1000), type: 'text', text: { body: text } };
  const body = webhookBody([
    {
      wabaId: DEMO.wabaId,
      phoneNumberId: DEMO.phoneNumberId1,
      displayPhoneNumber: DEMO.sender1,
      messages: [message],
      contacts: [{ profile: { name: 'Cliente' }, wa_id: from }],
    },
  ]);
  const raw = JSON.stringify(body);
  const answer = await runtime.call('POST', '/hooks/meta/whatsapp', {
    rawBody: raw,
    headers: { 'x-hub-signature-256': signWebhookBody(raw, runtime.demo.metaAppSecret) },
  });
  expect(answer.status).toBe(200);
}
/** Every queued webhook applied. */
const applied = () => runtime.workersIdle();
const secondsFrom = (base: number) => (seconds: number) => new Date(base + seconds * 1000);

/** Accepts a broadcast `inSeconds` from now (0: at once) and answers its job id. */
async function broadcast(data: Recipient[], inSeconds = 0): Promise<string> {
  const body = orderUpdate(data, inSeconds > 0 ? { scheduledAt: new Date(Date.now() + inSeconds * 1000).toISOString() } : {});
  const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(key), body });
  expect(accepted.status).toBe(inSeconds > 0 ? 202 : 200);
  return accepted.headers.get('x-broadcast-job-id')!;
}
const rowsOf = async (jobId: string) =>
  (
    (await runtime.call('GET', `${BASE}/broadcasts/${jobId}/recipients?limit=100`, { headers: keyHeader(key) })).body.data.recipients as Array<
      Record<string, unknown>
    >
  ).map((row) => [`${row.countryCode}${row.toPhoneNumber}`, row.status, row.failureReasonCode]);

describe('opt-outs at send time', () => {
  it('a scheduled job: a recipient opted out (by the API) between accept and firing is FAILED OPTED_OUT, counted, listed, never sent', async () => {
    const data = recipients(3, { first: 9_610_000_000 });
    const jobId = await broadcast(data, 6);
    expect((await v1('POST', '/opt-outs', { phoneNumber: fullNumber(data[1]!) })).status).toBe(201);
    // The opt-out was on the list before the job fired: only the send-time check can stop it.
    expect((await readJob(runtime.demo.organizationId, jobId)).status).toBe('SCHEDULED');

    const final = await waitForTerminal(runtime.demo.organizationId, jobId, 60_000);
    expect(final.status).toBe('COMPLETED_WITH_FAILURES');
    expect(final.summary).toMatchObject({ sent: 2, failed: 1, pending: 0, failuresByReason: { OPTED_OUT: 1 } });
    expect(await rowsOf(jobId)).toEqual([
      [fullNumber(data[0]!), expect.stringMatching(/^(SENT|DELIVERED|READ)$/), null],
      [fullNumber(data[1]!), 'FAILED', 'OPTED_OUT'],
      [fullNumber(data[2]!), expect.stringMatching(/^(SENT|DELIVERED|READ)$/), null],
    ]);
    expect(sentTo(fullNumber(data[1]!))).toHaveLength(0);
    expect(sentTo(fullNumber(data[0]!))).toHaveLength(1);
  });

  it('Brazil and Mexico: STOPs from the wa_id forms between accept and firing stop the dialled forms of a scheduled job', async () => {
    // Dialled: Recife mobile with its ninth digit, CDMX mobile with the old 1; Meta's wa_id: without either.
    const brazil: Recipient = { countryCode: '55', toPhoneNumber: '81988887777', templateParams: ['Ana', 'ORD-1'] };
    const mexico: Recipient = { countryCode: '52', toPhoneNumber: '15512345678', templateParams: ['Luis', 'ORD-2'] };
    const kept: Recipient = { countryCode: '55', toPhoneNumber: '11987654321', templateParams: ['Bia', 'ORD-3'] };
    const jobId = await broadcast([brazil, mexico, kept], 6);
    const at = secondsFrom(Math.floor(Date.now() / 1000) * 1000);
    await customerWrites('558188887777', 'PARAR', at(0));
    await customerWrites('525512345678', 'Baja', at(0));
    await applied();
    expect(await listed()).toEqual(expect.arrayContaining(['558188887777:keyword', '525512345678:keyword']));
    expect((await readJob(runtime.demo.organizationId, jobId)).status).toBe('SCHEDULED');

    const final = await waitForTerminal(runtime.demo.organizationId, jobId, 60_000);
    expect(final.summary).toMatchObject({ sent: 1, failed: 2, failuresByReason: { OPTED_OUT: 2 } });
    expect(await rowsOf(jobId)).toEqual([
      ['5581988887777', 'FAILED', 'OPTED_OUT'],
      ['5215512345678', 'FAILED', 'OPTED_OUT'],
      ['5511987654321', expect.stringMatching(/^(SENT|DELIVERED|READ)$/), null],
    ]);
    expect(sentTo('5581988887777')).toHaveLength(0);
    expect(sentTo('5215512345678')).toHaveLength(0);
  });

  it('Brazil and Mexico at accept time: opt-outs under one form refuse the other form, both ways', async () => {
    await v1('POST', '/opt-outs', { phoneNumber: '5521977776666' }); // dialled form on the list; the broadcast names the wa_id form
    await v1('POST', '/opt-outs', { phoneNumber: '523312345678' }); // wa_id form on the list; the broadcast dials 52 1
    const jobId = await broadcast([
      { countryCode: '55', toPhoneNumber: '2177776666', templateParams: ['A', 'B'] },
      { countryCode: '52', toPhoneNumber: '13312345678', templateParams: ['C', 'D'] },
    ]);
    await waitForTerminal(runtime.demo.organizationId, jobId, 60_000);
    expect(await rowsOf(jobId)).toEqual([
      ['552177776666', 'FAILED', 'OPTED_OUT'],
      ['5213312345678', 'FAILED', 'OPTED_OUT'],
    ]);
    // One entry per person: a repeat under the other form is the same entry; a removal under it removes it.
    expect((await v1('POST', '/opt-outs', { phoneNumber: '552177776666' })).status).toBe(200);
    expect((await v1('DELETE', '/opt-outs/5213312345678')).status).toBe(204);
    expect(await listed()).not.toContain('523312345678:api');
  });
});

describe('STOP and START by Meta’s timestamp', () => {
  const customer = '447700900888';
  const onList = async () => (await listed()).some((entry) => entry.startsWith(`${customer}:`));

  it('delivered out of order, or at the same moment, they end in the state of the latest', async () => {
    const at = secondsFrom(Math.floor(Date.now() / 1000) * 1000 - 600_000);
    // The START (later) arrives and is applied first; the STOP (earlier) after it changes nothing.
    await customerWrites(customer, 'START', at(20));
    await applied();
    await customerWrites(customer, 'STOP', at(10));
    await applied();
    expect(await onList()).toBe(false);

    // Both at once, twice over (each redelivered): STOP is the latest.
    await Promise.all([
      customerWrites(customer, 'STOP', at(40)),
      customerWrites(customer, 'START', at(30)),
      customerWrites(customer, 'START', at(30)),
      customerWrites(customer, 'STOP', at(40)),
    ]);
    await applied();
    expect(await listed()).toContain(`${customer}:keyword`);

    // And back: START the latest of two concurrent ones.
    await Promise.all([customerWrites(customer, 'START', at(60)), customerWrites(customer, 'STOP', at(50))]);
    await applied();
    expect(await onList()).toBe(false);
  });

  it('an opt-out the API added survives the customer’s START; the API removes it', async () => {
    const number = '447700900889';
    expect((await v1('POST', '/opt-outs', { phoneNumber: number })).status).toBe(201);
    await customerWrites(number, 'START', new Date(Math.floor(Date.now() / 1000) * 1000));
    await applied();
    expect(await listed()).toContain(`${number}:api`);
    expect((await v1('DELETE', `/opt-outs/${number}`)).status).toBe(204);
    expect(await listed()).not.toContain(`${number}:api`);
  });

  it('so does one an operator added with the admin CLI (source operator)', async () => {
    const number = '447700900890';
    const added = await admin(['add-opt-out', '--org', runtime.demo.organizationId, '--phone-number', number]);
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ created: true, optOut: { phoneNumber: number, source: 'operator' } });
    await customerWrites(number, 'START', new Date(Math.floor(Date.now() / 1000) * 1000));
    await applied();
    expect(await listed()).toContain(`${number}:operator`);
  });
});

/** The operators' CLI against this runtime (its runtime.env). */
function admin(args: string[]): Promise<AdminCliResult> {
  return runAdminCli([...args, '--env-file', join(runtime.dataDirectory, 'runtime.env')], { timeoutMs: 90_000 });
}
