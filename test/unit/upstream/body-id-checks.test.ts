/**
 * Ids inside /upstream bodies checked against the caller's organization before any upstream call
 * (shared/upstream/owned-ids.ts), and the ids recorded after sends and uploads; through the group's
 * Lambda handler with a scripted Graph transport and in-memory records.
 */
import { createWrapperKit, graphFailure, ids, ok, type WrapperKit } from '../../support/upstream-fakes';

let kit: WrapperKit;
beforeEach(async () => {
  kit = await createWrapperKit();
  kit.graph.on('POST', `/${ids.phone}/messages`, (request) =>
    ok({ messaging_product: 'whatsapp', messages: [{ id: `wamid.sent-${(request.json as { to?: string }).to ?? 'x'}` }] }),
  );
});

const record = (organizationId: string, id: string) => ({ organizationId, wabaId: ids.waba, phoneNumberId: ids.phone, id, recordedAt: kit.time.now() });
const send = (body: Record<string, unknown>) => kit.call('sendMessage', { body: { to: '15551234567', ...body } });
const sends = () => kit.graph.calls().filter((request) => request.method === 'POST');

const expectNotConnected = (response: { status: number; body: any }, message: string) => {
  expect(response.status).toBe(404);
  expect(response.body).toEqual({ status: false, message, error: expect.objectContaining({ type: 'NOT_CONNECTED', code: 404 }) });
};

describe('media ids', () => {
  it('a media id the organization uploaded passes without asking Meta', async () => {
    await kit.idRecords.recordMedia(record(kit.org, 'M-own'));
    expect((await send({ type: 'image', image: { id: 'M-own' } })).status).toBe(200);
    expect(kit.graph.calls().map((request) => `${request.method} ${request.path}`)).toEqual([`POST /${ids.phone}/messages`]);
  });

  it("another organization's media id answers 404 when Meta does not place it on the sending number; nothing is sent", async () => {
    await kit.idRecords.recordMedia(record(kit.otherOrg, 'M-other'));
    kit.graph.on('GET', '/M-other', graphFailure(400, 100, { error_subcode: 33 }));
    const response = await send({ type: 'image', image: { id: 'M-other' } });
    expectNotConnected(response, 'Media M-other is not connected to this organization');
    expect(kit.graph.calls().find((request) => request.path === '/M-other')!.query).toEqual({ phone_number_id: ids.phone });
    expect(sends()).toEqual([]);
  });

  it('any other rejection by Meta of an unrecorded media id is the same 404 (no oracle); a rate limit stays a 429', async () => {
    kit.graph.on('GET', '/M-x', graphFailure(400, 100, { message: 'Invalid parameter' }));
    expectNotConnected(await send({ type: 'sticker', sticker: { id: 'M-x' } }), 'Media M-x is not connected to this organization');
    kit.graph.on('GET', '/M-y', graphFailure(429, 4));
    expect((await send({ type: 'video', video: { id: 'M-y' } })).status).toBe(429);
    expect(sends()).toEqual([]);
  });

  it('a media id uploaded directly to Meta on the sending number passes (Meta confirms it) and is recorded', async () => {
    kit.graph.on('GET', '/M-direct', ok({ id: 'M-direct', mime_type: 'image/png' }));
    expect((await send({ type: 'image', image: { id: 'M-direct' } })).status).toBe(200);
    expect(kit.idRecords.media.get(`${kit.org}#M-direct`)).toEqual(expect.objectContaining({ phoneNumberId: ids.phone, wabaId: ids.waba }));
    await send({ type: 'image', image: { id: 'M-direct' } });
    expect(kit.graph.calls().filter((request) => request.path === '/M-direct')).toHaveLength(1);
  });

  it('media in interactive headers and template header parameters are checked too', async () => {
    kit.graph.on('GET', '/M-h', graphFailure(404, 100));
    expectNotConnected(
      await send({
        type: 'interactive',
        interactive: { type: 'button', header: { type: 'image', image: { id: 'M-h' } }, body: { text: 'x' }, action: { buttons: [] } },
      }),
      'Media M-h is not connected to this organization',
    );
    const template = {
      name: 'order_update',
      language: { code: 'en_US' },
      components: [{ type: 'header', parameters: [{ type: 'document', document: { id: 'M-h' } }] }],
    };
    expectNotConnected(await send({ type: 'template', template }), 'Media M-h is not connected to this organization');
    expectNotConnected(
      await kit.call('sendMarketingMessage', { body: { to: '15551234567', type: 'template', template } }),
      'Media M-h is not connected to this organization',
    );
    expect(sends()).toEqual([]);
  });

  it('an upload records the media id for the organization', async () => {
    kit.graph.on('POST', `/${ids.phone}/media`, ok({ id: '1500000000777' }));
    const boundary = 'b0undary';
    const rawBody = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nPNGDATA\r\n--${boundary}--\r\n`,
    );
    expect((await kit.call('uploadMedia', { rawBody, headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` } })).status).toBe(200);
    expect(kit.idRecords.media.get(`${kit.org}#1500000000777`)).toEqual(
      expect.objectContaining({ organizationId: kit.org, phoneNumberId: ids.phone, wabaId: ids.waba }),
    );
  });
});

describe('message ids', () => {
  it("read receipts and typing indicators: own sent ids pass; another organization's and unknown ids answer 404 before any call", async () => {
    await kit.idRecords.recordMessages([record(kit.otherOrg, 'wamid.other')], 'sent');
    for (const operation of ['markMessageRead', 'showTypingIndicator']) {
      expect((await kit.call(operation, { body: { message_id: 'wamid.ABC' } })).status).toBe(200);
      expectNotConnected(await kit.call(operation, { body: { message_id: 'wamid.other' } }), 'Message wamid.other is not connected to this organization');
      expectNotConnected(
        await kit.call(operation, { body: { message_id: 'wamid.never-seen' } }),
        'Message wamid.never-seen is not connected to this organization',
      );
      expectNotConnected(await kit.call(operation, { body: { message_id: 'wamid bad#id' } }), 'Message wamid bad#id is not connected to this organization');
    }
    expect(sends().map((request) => (request.json as { message_id: string }).message_id)).toEqual(['wamid.ABC', 'wamid.ABC']);
  });

  it("message ids of the platform's ledger (broadcasts, free-form) pass for their organization only", async () => {
    kit.platformMessages.owners.set('wamid.broadcast-own', kit.org);
    kit.platformMessages.owners.set('wamid.broadcast-other', kit.otherOrg);
    expect((await kit.call('markMessageRead', { body: { message_id: 'wamid.broadcast-own' } })).status).toBe(200);
    expectNotConnected(
      await kit.call('markMessageRead', { body: { message_id: 'wamid.broadcast-other' } }),
      'Message wamid.broadcast-other is not connected to this organization',
    );
  });

  it('replies and reactions name message ids that are checked the same way', async () => {
    expect((await send({ type: 'text', text: { body: 'hi' }, context: { message_id: 'wamid.ABC' } })).status).toBe(200);
    expectNotConnected(
      await send({ type: 'text', text: { body: 'hi' }, context: { message_id: 'wamid.x' } }),
      'Message wamid.x is not connected to this organization',
    );
    expectNotConnected(
      await send({ type: 'reaction', reaction: { message_id: 'wamid.y', emoji: '👍' } }),
      'Message wamid.y is not connected to this organization',
    );
    expect(sends()).toHaveLength(1);
  });

  it('a send records the message ids Meta answered, so a reply to them passes', async () => {
    expect((await send({ type: 'text', text: { body: 'hi' } })).body.messages[0].id).toBe('wamid.sent-15551234567');
    expect(kit.idRecords.messages.get(`${kit.org}#wamid.sent-15551234567`)).toEqual(expect.objectContaining({ direction: 'sent', phoneNumberId: ids.phone }));
    expect((await kit.call('markMessageRead', { body: { message_id: 'wamid.sent-15551234567' } })).status).toBe(200);
    // For the other organization it is still someone else's.
    expect(
      (
        await kit.call('markMessageRead', {
          token: kit.otherToken,
          pathParameters: { phoneNumberId: ids.otherPhone },
          body: { message_id: 'wamid.sent-15551234567' },
        })
      ).status,
    ).toBe(404);
  });

  it('a bulk send records the message ids of the recipients it reached', async () => {
    const response = await kit.call('sendBulkTemplate', {
      body: { template: { name: 'order_update', language: 'en_US' }, recipients: [{ to: '15550000001' }, { to: '15550000002' }] },
    });
    expect(response.body.summary.sent).toBe(2);
    expect([...kit.idRecords.messages.keys()]).toEqual(expect.arrayContaining([`${kit.org}#wamid.sent-15550000001`, `${kit.org}#wamid.sent-15550000002`]));
  });

  it('a record that cannot be written after the send does not fail the send: it is logged without recipient', async () => {
    kit.idRecords.failure = Object.assign(new Error('throttled'), { name: 'UpstreamIdStoreUnavailableError' });
    const response = await send({ type: 'text', text: { body: 'hi' } });
    expect(response.status).toBe(200);
    expect(kit.warnings).toEqual([
      {
        message: 'could not record sends and their message ids; it will be refused in message bodies',
        facts: expect.objectContaining({ operation: 'sendMessage', organizationId: kit.org }),
      },
    ]);
    expect(JSON.stringify(kit.warnings)).not.toContain('15551234567');
  });

  it('the id store failing before the call answers 503 and sends nothing', async () => {
    const { UpstreamIdStoreUnavailableError } = await import('../../../shared/upstream/errors');
    kit.idRecords.failure = new UpstreamIdStoreUnavailableError('Id store unavailable: TimeoutError');
    const response = await kit.call('markMessageRead', { body: { message_id: 'wamid.ABC' } });
    expect(response.status).toBe(503);
    expect(JSON.stringify(response.body)).not.toContain('TimeoutError');
    expect(sends()).toEqual([]);
  });
});

describe('flow ids and template names', () => {
  const flowMessage = (flowId: string) => ({
    type: 'interactive',
    interactive: { type: 'flow', body: { text: 'x' }, action: { name: 'flow', parameters: { flow_message_version: '3', flow_cta: 'Go', flow_id: flowId } } },
  });

  it("a flow message's flow_id must be one of the account's flows", async () => {
    expect((await send(flowMessage(ids.flow))).status).toBe(200);
    expectNotConnected(await send(flowMessage(ids.otherFlow)), `Flow ${ids.otherFlow} is not connected to this organization`);
    expect(sends()).toHaveLength(1);
  });

  it("a template message's name must be one of the account's templates (a name created a moment ago passes after one fresh read)", async () => {
    expect((await send({ type: 'template', template: { name: 'spring_sale', language: { code: 'en' } } })).status).toBe(200);
    expectNotConnected(
      await send({ type: 'template', template: { name: 'other_org_template', language: { code: 'en' } } }),
      'Template other_org_template is not connected to this organization',
    );
    kit.graph.on(
      'GET',
      `/${ids.waba}/message_templates`,
      ok({
        data: [
          { id: ids.template, name: 'order_update' },
          { id: '130000000000099', name: 'brand_new' },
        ],
      }),
    );
    expect((await send({ type: 'template', template: { name: 'brand_new', language: { code: 'en' } } })).status).toBe(200);
    expectNotConnected(
      await kit.call('sendBulkTemplate', { body: { template: { name: 'other_org_template', language: 'en' }, recipients: [{ to: '15550000001' }] } }),
      'Template other_org_template is not connected to this organization',
    );
    expect(sends()).toHaveLength(2);
  });

  it("template definitions: a FLOW button's flow_id must be one of the account's flows", async () => {
    const definition = (flowId: string) => ({
      name: 'offer',
      language: 'en_US',
      category: 'MARKETING',
      components: [{ type: 'BUTTONS', buttons: [{ type: 'FLOW', text: 'Open', flow_id: flowId }] }],
    });
    kit.graph.on('POST', `/${ids.waba}/message_templates`, ok({ id: '1', status: 'PENDING' }));
    expect((await kit.call('createTemplate', { body: definition(ids.flow) })).status).toBe(200);
    expectNotConnected(await kit.call('createTemplate', { body: definition(ids.otherFlow) }), `Flow ${ids.otherFlow} is not connected to this organization`);
    expectNotConnected(
      await kit.call('editTemplate', { body: { components: definition(ids.otherFlow).components } }),
      `Flow ${ids.otherFlow} is not connected to this organization`,
    );
  });
});
