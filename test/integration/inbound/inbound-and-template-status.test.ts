/**
 * The delivery processor's two non-status sinks (functions/composition/delivery-sinks.section.ts),
 * built as the delivery-events composition builds them and called with real SDK clients against the
 * local runtime's DynamoDB, then observed through the HTTP surface:
 *
 * - an inbound message → the v1 `GET /contacts` and `GET /conversations` show the contact and the
 *   conversation with its `lastInboundAt`; a redelivery changes nothing; another organization sees none of it;
 * - a free-form send to a recipient who last wrote 25 hours ago → 400 OUTSIDE_SERVICE_WINDOW and nothing
 *   reaches the sandbox; after a fresh inbound message the same send is accepted and sent;
 * - a PAUSED template event → the next send-template-broadcast is refused with the template's state,
 *   although the catalog's cached list (one minute here) still says APPROVED; APPROVED again → accepted.
 */
import { getServices } from '../../../functions/composition';
import { createCompositionContext } from '../../../functions/composition/composition-context';
import { inboundMessageSinkSection, templateStatusSinkSection } from '../../../functions/composition/delivery-sinks.section';
import { dynamoDbClients } from '../../../functions/composition/dynamodb-clients';
import { tenancyReaderSection } from '../../../functions/composition/tenancy.section';
import { DynamoDbTemplateStates } from '../../../shared/adapters/dynamodb/dynamodb-template-states';
import type { InboundMessage, InboundMessageSink, TemplateStatusSink } from '../../../shared/delivery/ports';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, issueKey, jobCount, keyHeader, kitEnvironment, orderUpdate, recipients } from '../broadcast/broadcast-test-kit';
import { provisionV1Organization, type V1Organization } from '../v1/v1-test-kit';

jest.setTimeout(30_000);

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600 * 1000);
/** Meta's timestamps are whole seconds. */
const wholeSeconds = (date: Date) => new Date(Math.floor(date.getTime() / 1000) * 1000);

describe('inbound messages and template status events, through the local runtime', () => {
  let runtime: TestRuntime;
  let inbound: InboundMessageSink;
  let templateStatus: TemplateStatusSink;
  let org: V1Organization;
  let other: V1Organization;

  beforeAll(async () => {
    // A one-minute template cache: the overlay, not a re-read of Meta's list, must make the next broadcast see the event.
    runtime = await startTestRuntime({ environment: { ...kitEnvironment, TEMPLATE_CACHE_TTL_MS: '60000' } });
    const context = createCompositionContext(getServices().config);
    const dynamoDb = dynamoDbClients(context);
    inbound = inboundMessageSinkSection(context, dynamoDb, tenancyReaderSection(context, dynamoDb))();
    templateStatus = templateStatusSinkSection(context, dynamoDb)();
    org = await provisionV1Organization({ plan: 'enterprise', apiAddOn: false, senderCount: 1 });
    other = await provisionV1Organization({ plan: 'enterprise', apiAddOn: false, senderCount: 1 });
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  const v1 = (path: string, auth: { authorization: string }) => runtime.call('GET', `/v1${path}`, { headers: auth });
  const message = (overrides: Partial<InboundMessage> & Pick<InboundMessage, 'from' | 'phoneNumberId' | 'businessPhoneNumber'>): InboundMessage => ({
    messageId: `wamid.${Math.random().toString(36).slice(2)}`,
    profileName: 'Grace Hopper',
    timestamp: wholeSeconds(new Date()),
    type: 'text',
    text: 'Hello, is my order on its way?',
    ...overrides,
  });

  it('an inbound message becomes a v1 contact and conversation with lastInboundAt; a redelivery changes nothing', async () => {
    const sender = org.senders[0]!;
    const inboundMessage = message({
      from: '447700900777',
      phoneNumberId: `pn${sender}`,
      businessPhoneNumber: sender,
      timestamp: new Date('2026-03-02T08:59:00.000Z'),
    });
    await inbound.recordInbound(org.organizationId, inboundMessage);

    const contacts = await v1('/contacts', org.auth);
    expect(contacts.status).toBe(200);
    expect(contacts.body).toMatchObject({
      success: true,
      meta: { total: 1 },
      data: [{ phoneNumber: '447700900777', name: 'Grace Hopper', tags: [], attributes: {} }],
    });
    const contactId = contacts.body.data[0].id;
    const conversations = await v1('/conversations', org.auth);
    expect(conversations.body).toMatchObject({
      success: true,
      meta: { total: 1 },
      data: [{ contactId, senderPhoneNumber: sender, status: 'open', lastInboundAt: '2026-03-02T08:59:00.000Z', lastMessageAt: '2026-03-02T08:59:00.000Z' }],
    });

    // Redelivered, and an older message arriving late: no second contact or conversation, the time does not move back.
    await inbound.recordInbound(org.organizationId, inboundMessage);
    await inbound.recordInbound(org.organizationId, { ...inboundMessage, messageId: 'wamid.older', timestamp: new Date('2026-03-02T07:00:00.000Z') });
    expect((await v1('/contacts', org.auth)).body).toEqual(contacts.body);
    expect((await v1('/conversations', org.auth)).body).toEqual(conversations.body);
    expect((await v1(`/conversations?status=open`, org.auth)).body.meta.total).toBe(1);

    // A newer message moves it forward on the same conversation.
    await inbound.recordInbound(org.organizationId, { ...inboundMessage, messageId: 'wamid.newer', timestamp: new Date('2026-03-02T10:00:00.000Z') });
    expect((await v1(`/conversations/${conversations.body.data[0].id}`, org.auth)).body.data).toMatchObject({ lastInboundAt: '2026-03-02T10:00:00.000Z' });

    // Another organization sees none of it.
    expect((await v1('/contacts', other.auth)).body.meta.total).toBe(0);
    expect((await v1('/conversations', other.auth)).body.meta.total).toBe(0);
  });

  describe('free-form sends and the 24-hour window', () => {
    const send = async (to: string) =>
      runtime.call('POST', `${BASE}/send-freeform`, {
        headers: keyHeader((await issueKey(runtime.demo.organizationId)).secret),
        body: { type: 'text', text: 'We have an update on your order', fromPhoneNumber: DEMO.sender1, toPhoneNumber: to },
      });
    const acceptedTo = (to: string) => runtime.sandbox!.acceptedMessages().filter((accepted) => accepted.recipient === to);
    const inboundFrom = (from: string, timestamp: Date) =>
      inbound.recordInbound(runtime.demo.organizationId, message({ from, phoneNumberId: DEMO.phoneNumberId1, businessPhoneNumber: DEMO.sender1, timestamp }));

    it('a recipient who last wrote 25 hours ago: 400 OUTSIDE_SERVICE_WINDOW, no job, nothing sent; after a new message: sent', async () => {
      const to = '447700900801';
      await inboundFrom(to, wholeSeconds(hoursAgo(25)));
      const jobsBefore = await jobCount(runtime.demo.organizationId);

      const refused = await send(to);
      expect(refused.status).toBe(400);
      const rule =
        "toPhoneNumber has not written to fromPhoneNumber in the last 24 hours: free-form messages are allowed only within 24 hours of the customer's last message; send an approved template instead";
      expect(refused.body).toMatchObject({
        statusCode: 400,
        status: false,
        status_code: 400,
        message: rule,
        data: { error: { code: 'OUTSIDE_SERVICE_WINDOW', message: rule } },
      });
      expect(await jobCount(runtime.demo.organizationId)).toBe(jobsBefore);

      await inboundFrom(to, wholeSeconds(new Date()));
      const accepted = await send(to);
      expect(accepted.status).toBe(200);
      await eventually(
        async () => acceptedTo(to).length,
        (count) => count === 1,
        20_000,
      );
      // Only the accepted send reached the sandbox.
      expect(acceptedTo(to)).toHaveLength(1);
    });

    it('a recipient with nothing recorded (unknown window) is sent, as before', async () => {
      const to = '447700900802';
      expect((await send(to)).status).toBe(200);
      await eventually(
        async () => acceptedTo(to).length,
        (count) => count === 1,
        20_000,
      );
    });
  });

  describe('template status events', () => {
    const broadcast = async () =>
      runtime.call('POST', `${BASE}/send-template-broadcast`, {
        headers: keyHeader((await issueKey(runtime.demo.organizationId)).secret),
        body: orderUpdate(recipients(1, { first: 9_100_000_000 + Math.floor(Math.random() * 1_000_000) })),
      });
    const event = (status: string, at: Date) =>
      templateStatus.recordTemplateStatus(runtime.demo.organizationId, {
        wabaId: DEMO.wabaId,
        templateId: DEMO.templateIds.order_update,
        name: 'order_update',
        language: 'en_US',
        status,
        reason: status === 'PAUSED' ? 'Low quality' : undefined,
        at,
      });

    it('PAUSED refuses the next broadcast with the template’s state before the cached list expires; APPROVED again is accepted', async () => {
      // Warm the catalog's cached list (APPROVED in the sandbox, which is never changed here).
      expect((await broadcast()).status).toBe(200);
      const pausedAt = wholeSeconds(new Date(Date.now() + 1000));
      await event('PAUSED', pausedAt);

      const refused = await broadcast();
      expect(refused.status).toBe(400);
      const message = 'template order_update (en_US) is PAUSED; only APPROVED templates can be sent';
      expect(refused.body).toMatchObject({ statusCode: 400, message, data: { error: { code: 'TEMPLATE_NOT_APPROVED', message } } });

      // A reordered, older APPROVED changes nothing; a newer one makes the template sendable again.
      await event('APPROVED', new Date(pausedAt.getTime() - 1000));
      expect((await broadcast()).status).toBe(400);
      await event('APPROVED', new Date(pausedAt.getTime() + 1000));
      expect((await broadcast()).status).toBe(200);
    });

    it('the record keeps the newest event, with its reason and template id', async () => {
      const services = getServices();
      const states = new DynamoDbTemplateStates(services.clients.dynamoDb, services.config.tableNames.messaging!);
      const at = new Date('2026-03-01T09:00:00.000Z');
      expect(await states.record('waba_states_test', { name: 't', language: 'en', status: 'PAUSED', reason: 'Low quality', templateId: 'tpl_9', at })).toBe(
        true,
      );
      expect(await states.record('waba_states_test', { name: 't', language: 'en', status: 'APPROVED', templateId: 'tpl_9', at })).toBe(false);
      expect(
        await states.record('waba_states_test', { name: 't', language: 'en', status: 'APPROVED', templateId: 'tpl_9', at: new Date(at.getTime() - 1) }),
      ).toBe(false);
      expect(await states.statesOf('waba_states_test')).toEqual([
        { name: 't', language: 'en', status: 'PAUSED', reason: 'Low quality', templateId: 'tpl_9', at },
      ]);
      expect(
        await states.record('waba_states_test', { name: 't', language: 'en', status: 'DISABLED', templateId: 'tpl_9', at: new Date(at.getTime() + 1000) }),
      ).toBe(true);
      expect(await states.statesOf('waba_states_test')).toEqual([
        { name: 't', language: 'en', status: 'DISABLED', templateId: 'tpl_9', at: new Date(at.getTime() + 1000) },
      ]);
      expect(await states.statesOf('waba_other')).toEqual([]);
    });

    it('keeps the newest quality and category apart from the status: an older event is refused, the same second is written', async () => {
      const services = getServices();
      const states = new DynamoDbTemplateStates(services.clients.dynamoDb, services.config.tableNames.messaging!);
      const at = new Date('2026-03-01T09:00:00.000Z');
      const attribute = (kind: 'quality' | 'category', value: string, when: Date) => ({
        name: 't',
        language: 'en',
        templateId: 'tpl_9',
        kind,
        value,
        at: when,
      });
      expect(await states.recordAttribute('waba_attributes_test', attribute('category', 'MARKETING', at))).toBe(true);
      expect(await states.recordAttribute('waba_attributes_test', attribute('category', 'UTILITY', new Date(at.getTime() - 1000)))).toBe(false);
      expect(await states.recordAttribute('waba_attributes_test', attribute('quality', 'YELLOW', at))).toBe(true);
      expect(await states.recordAttribute('waba_attributes_test', attribute('quality', 'RED', at))).toBe(true);
      expect(await states.record('waba_attributes_test', { name: 't', language: 'en', status: 'PAUSED', templateId: 'tpl_9', at })).toBe(true);
      const byKind = (await states.attributesOf('waba_attributes_test')).sort((a, b) => a.kind.localeCompare(b.kind));
      expect(byKind).toEqual([attribute('category', 'MARKETING', at), attribute('quality', 'RED', at)]);
      expect(await states.statesOf('waba_attributes_test')).toEqual([{ name: 't', language: 'en', status: 'PAUSED', templateId: 'tpl_9', at }]);
      expect(await states.attributesOf('waba_other')).toEqual([]);
    });
  });
});
