/**
 * Ids inside /upstream message bodies, across two organizations, through the local runtime
 * (gateway → Lambda handler → dynalite → sandbox): for every id kind the wrapper can see in a body,
 * the other organization's id answers the same 404 as a foreign phoneNumberId, before anything
 * reaches the sandbox, and the organization's own id passes. Media and message ids are recorded
 * in the messaging table at upload and send; broadcast message ids come from the ledger (gsi1).
 */
import { getServices } from '../../../functions/composition';
import { eventually, startTestRuntime, type TestResponse, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, issueKey, keyHeader } from '../broadcast/broadcast-test-kit';
import { multipartCall, PNG_1X1, wrapperCall } from './upstream-kit';

jest.setTimeout(30_000);

let runtime: TestRuntime;
let phone: string;
let waba: string;
const own = { media: '', message: '', flow: '', broadcastMessage: '' };
const foreign = { media: '', message: '', flow: '', template: 'appointment_reminder' };

/** A send of the demo organization's first number. */
const send = (message: Record<string, unknown>, token?: string) =>
  wrapperCall(runtime, 'POST', `/phone-numbers/${phone}/messages`, { body: { to: '15557771000', ...message }, token });
const accepted = () => runtime.sandbox!.acceptedMessages().length;

function expectNotConnected(response: TestResponse, message: string): void {
  expect(response.status).toBe(404);
  expect(response.body).toEqual({ status: false, message, error: expect.objectContaining({ message, type: 'NOT_CONNECTED', code: 404 }) });
}

/** 404 with nothing sent: the sandbox accepted no message during the call. */
async function expectRefusedBeforeSending(call: () => Promise<TestResponse>, message: string): Promise<void> {
  const before = accepted();
  expectNotConnected(await call(), message);
  expect(accepted()).toBe(before);
}

beforeAll(async () => {
  runtime = await startTestRuntime();
  phone = runtime.demo.phoneNumberIds[0]!;
  waba = runtime.demo.wabaId;
  const other = runtime.demo.otherOrg;

  const upload = (phoneNumberId: string, token?: string) =>
    multipartCall(runtime, `/phone-numbers/${phoneNumberId}/media`, [{ name: 'file', value: PNG_1X1, filename: 'a.png', type: 'image/png' }], token);
  const [ownMedia, otherMedia] = [await upload(phone), await upload(other.phoneNumberId, other.accessToken)];
  const ownFlow = await wrapperCall(runtime, 'POST', `/wabas/${waba}/flows`, { body: { name: 'own_flow', categories: ['OTHER'] } });
  const otherFlow = await wrapperCall(runtime, 'POST', `/wabas/${other.wabaId}/flows`, {
    token: other.accessToken,
    body: { name: 'other_flow', categories: ['OTHER'] },
  });
  const ownMessage = await send({ type: 'text', text: { body: 'Hello' } });
  const otherMessage = await wrapperCall(runtime, 'POST', `/phone-numbers/${other.phoneNumberId}/messages`, {
    token: other.accessToken,
    body: { to: '15557772000', type: 'text', text: { body: 'Other' } },
  });
  for (const response of [ownMedia, otherMedia, ownFlow, otherFlow, ownMessage, otherMessage]) expect(response.status).toBe(200);
  Object.assign(own, { media: ownMedia.body.id, flow: ownFlow.body.id, message: ownMessage.body.messages[0].id });
  Object.assign(foreign, { media: otherMedia.body.id, flow: otherFlow.body.id, message: otherMessage.body.messages[0].id });

  // A free-form message of the demo organization through the platform (queue, chunk worker): its id is in the ledger.
  const key = await issueKey(runtime.demo.organizationId);
  const freeform = await runtime.call('POST', `${BASE}/send-freeform`, {
    headers: keyHeader(key.secret),
    body: { fromPhoneNumber: DEMO.sender1, toPhoneNumber: '447700900555', type: 'text', text: 'Hi' },
  });
  expect(freeform.status).toBe(200);
  const [delivered] = await eventually(
    () => Promise.resolve(runtime.sandbox!.acceptedMessages().filter((message) => message.recipient === '447700900555')),
    (list) => list.length > 0,
    20_000,
  );
  own.broadcastMessage = delivered!.messageId;
  await eventually(
    () => getServices().broadcast.broadcasts.findByMessageId(own.broadcastMessage),
    (found) => found?.entry.status === 'SENT',
    10_000,
  );
}, 60_000);

afterAll(async () => {
  await runtime?.close();
});

describe('media ids', () => {
  it("another organization's uploaded media id in an image message: 404, the sandbox receives nothing", async () => {
    await expectRefusedBeforeSending(
      () => send({ type: 'image', image: { id: foreign.media } }),
      `Media ${foreign.media} is not connected to this organization`,
    );
  });

  it("...in an interactive header, a template header parameter and a bulk send's template: 404, nothing sent", async () => {
    const message = `Media ${foreign.media} is not connected to this organization`;
    await expectRefusedBeforeSending(
      () =>
        send({
          type: 'interactive',
          interactive: {
            type: 'button',
            header: { type: 'image', image: { id: foreign.media } },
            body: { text: 'Pick' },
            action: { buttons: [{ type: 'reply', reply: { id: 'a', title: 'A' } }] },
          },
        }),
      message,
    );
    const header = { type: 'header', parameters: [{ type: 'image', image: { id: foreign.media } }] };
    await expectRefusedBeforeSending(
      () => send({ type: 'template', template: { name: 'order_update', language: { code: 'en_US' }, components: [header] } }),
      message,
    );
    await expectRefusedBeforeSending(
      () =>
        wrapperCall(runtime, 'POST', `/phone-numbers/${phone}/messages/bulk`, {
          body: {
            template: { name: 'order_update', language: 'en_US', components: [header] },
            recipients: [{ to: '15557771001', parameters: ['Ada', 'A-1'] }],
          },
        }),
      message,
    );
  });

  it("the organization's own uploaded media id passes", async () => {
    const response = await send({ type: 'image', image: { id: own.media, caption: 'Logo' } });
    expect(response.status).toBe(200);
    const sent = runtime.sandbox!.acceptedMessages().find((message) => message.messageId === response.body.messages[0].id)!;
    expect(sent.body).toEqual(expect.objectContaining({ type: 'image', image: { id: own.media, caption: 'Logo' } }));
  });

  it('the upload is recorded in the messaging table for its organization only', async () => {
    const records = getServices().upstreamWrapper.idRecords;
    expect([...(await records.ownedMedia(runtime.demo.organizationId, [own.media, foreign.media], new Date()))]).toEqual([own.media]);
    expect([...(await records.ownedMedia(runtime.demo.otherOrg.organizationId, [own.media, foreign.media], new Date()))]).toEqual([foreign.media]);
    // Meta keeps media 30 days; so does the record (TTL is lazy on AWS and absent in dynalite: the read checks it).
    const old = {
      organizationId: runtime.demo.organizationId,
      wabaId: waba,
      phoneNumberId: phone,
      id: '1599999999999',
      recordedAt: new Date(Date.now() - 31 * 86_400_000),
    };
    await records.recordMedia(old);
    expect([...(await records.ownedMedia(runtime.demo.organizationId, [old.id], new Date()))]).toEqual([]);
    expect([...(await records.ownedMedia(runtime.demo.organizationId, [old.id], new Date(Date.now() - 2 * 86_400_000)))]).toEqual([old.id]);
  });
});

describe('message ids', () => {
  it.each(['read', 'typing'])("another organization's message id in mark-as-read (%s): 404", async (route) => {
    const response = await wrapperCall(runtime, 'POST', `/phone-numbers/${phone}/messages/${route}`, { body: { message_id: foreign.message } });
    expectNotConnected(response, `Message ${foreign.message} is not connected to this organization`);
  });

  it('an unknown message id (e.g. a received message, until inbound webhooks record them): the same 404', async () => {
    const response = await wrapperCall(runtime, 'POST', `/phone-numbers/${phone}/messages/read`, {
      body: { message_id: 'wamid.HBgLMTU1NTEyMzQ1NjcVAgARGBI5QTNDQTVCM0Q0Q0Q2RTY3RTcA' },
    });
    expectNotConnected(response, 'Message wamid.HBgLMTU1NTEyMzQ1NjcVAgARGBI5QTNDQTVCM0Q0Q0Q2RTY3RTcA is not connected to this organization');
  });

  it("another organization's message id in a reply (context) or a reaction: 404, nothing sent", async () => {
    const message = `Message ${foreign.message} is not connected to this organization`;
    await expectRefusedBeforeSending(() => send({ type: 'text', text: { body: 'Re' }, context: { message_id: foreign.message } }), message);
    await expectRefusedBeforeSending(() => send({ type: 'reaction', reaction: { message_id: foreign.message, emoji: '👍' } }), message);
  });

  it('own message ids pass: sent through the wrapper (read, typing, reply, reaction) and through the platform (ledger)', async () => {
    for (const route of ['read', 'typing']) {
      expect((await wrapperCall(runtime, 'POST', `/phone-numbers/${phone}/messages/${route}`, { body: { message_id: own.message } })).body).toEqual({
        success: true,
      });
    }
    expect((await send({ type: 'text', text: { body: 'Re' }, context: { message_id: own.message } })).status).toBe(200);
    expect((await send({ type: 'reaction', reaction: { message_id: own.message, emoji: '👍' } })).status).toBe(200);
    expect((await wrapperCall(runtime, 'POST', `/phone-numbers/${phone}/messages/read`, { body: { message_id: own.broadcastMessage } })).body).toEqual({
      success: true,
    });
    // And for the other organization, the demo's ids are foreign.
    const other = runtime.demo.otherOrg;
    for (const id of [own.message, own.broadcastMessage]) {
      expect(
        (await wrapperCall(runtime, 'POST', `/phone-numbers/${other.phoneNumberId}/messages/read`, { token: other.accessToken, body: { message_id: id } }))
          .status,
      ).toBe(404);
    }
  });

  it('a bulk send records the message ids it sent: they pass in a read receipt', async () => {
    const response = await wrapperCall(runtime, 'POST', `/phone-numbers/${phone}/messages/bulk`, {
      body: { template: { name: 'order_update', language: 'en_US' }, recipients: [{ to: '15557771002', parameters: ['Ada', 'A-2'] }] },
    });
    expect(response.body.summary.sent).toBe(1);
    const id = response.body.results[0].message_id;
    expect((await wrapperCall(runtime, 'POST', `/phone-numbers/${phone}/messages/read`, { body: { message_id: id } })).status).toBe(200);
  });
});

describe('flow ids and template names', () => {
  const flowMessage = (flowId: string) => ({
    type: 'interactive',
    interactive: {
      type: 'flow',
      body: { text: 'Sign up' },
      action: { name: 'flow', parameters: { flow_message_version: '3', flow_cta: 'Open', flow_id: flowId, mode: 'draft' } },
    },
  });

  it("another organization's flow id in a flow message: 404, nothing sent; the account's own passes", async () => {
    await expectRefusedBeforeSending(() => send(flowMessage(foreign.flow)), `Flow ${foreign.flow} is not connected to this organization`);
    expect((await send(flowMessage(own.flow))).status).toBe(200);
  });

  it("another organization's flow id in a template definition's FLOW button: 404", async () => {
    const definition = (flowId: string) => ({
      name: 'flow_offer',
      language: 'en_US',
      category: 'MARKETING',
      components: [
        { type: 'BODY', text: 'Offer' },
        { type: 'BUTTONS', buttons: [{ type: 'FLOW', text: 'Open', flow_id: flowId, flow_action: 'navigate' }] },
      ],
    });
    expectNotConnected(
      await wrapperCall(runtime, 'POST', `/wabas/${waba}/templates`, { body: definition(foreign.flow) }),
      `Flow ${foreign.flow} is not connected to this organization`,
    );
  });

  it("another organization's template name in a template message (and a marketing message): 404, nothing sent; the account's own passes", async () => {
    const template = (name: string) => ({
      type: 'template',
      template: { name, language: { code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Monday' }] }] },
    });
    const message = `Template ${foreign.template} is not connected to this organization`;
    await expectRefusedBeforeSending(() => send(template(foreign.template)), message);
    await expectRefusedBeforeSending(
      () => wrapperCall(runtime, 'POST', `/phone-numbers/${phone}/marketing-messages`, { body: { to: '15557771003', ...template(foreign.template) } }),
      message,
    );
    await expectRefusedBeforeSending(
      () =>
        wrapperCall(runtime, 'POST', `/phone-numbers/${phone}/messages/bulk`, {
          body: { template: { name: foreign.template, language: 'en_US' }, recipients: [{ to: '15557771004', parameters: ['Monday'] }] },
        }),
      message,
    );
    const ownTemplate = {
      type: 'template',
      template: {
        name: 'order_update',
        language: { code: 'en_US' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ada' },
              { type: 'text', text: 'A-3' },
            ],
          },
        ],
      },
    };
    expect((await send(ownTemplate)).status).toBe(200);
  });
});
