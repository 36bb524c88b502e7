/**
 * Routing template broadcasts to Meta's Marketing Messages API: the pure rule
 * (marketing-messages-route.ts), the onboarding read and its cache (marketing-messages-onboarding.ts),
 * the accept's decision recorded on the job and carried by every chunk message (held ones of a
 * scheduled job included), and the job status's `route`.
 */
import type { BroadcastJob } from '../../../shared/broadcast/broadcast-job';
import { decodeOutboundMessage, encodeOutboundMessage, type TemplateChunkMessage } from '../../../shared/broadcast/chunk-message';
import { getJobStatus } from '../../../shared/broadcast/get-job-status';
import { CachedMarketingMessagesOnboarding, templateRouteOf } from '../../../shared/broadcast/marketing-messages-onboarding';
import { marketingMessagesBody, marketingMessagesRoute, needsOnboardingStatus } from '../../../shared/broadcast/marketing-messages-route';
import { sendTemplateBroadcast, type SendTemplateBroadcastDependencies } from '../../../shared/broadcast/send-template-broadcast';
import { fixedClock } from '../../../shared/ports/clock';
import type { MarketingMessagesSetting } from '../../../shared/tenancy/tenancy-entities';
import {
  FixedMarketingMessagesOnboarding,
  InMemorySenderDirectory,
  ORG,
  SENDER,
  ScriptedCloudApi,
  broadcastRequest,
  chunkMessage,
  template,
} from '../../support/broadcast-fakes';
import { InMemoryScheduledJobStore, RecordingFiringScheduler } from '../../support/scheduled-job-fakes';
import { templateBroadcastKit } from '../../support/template-broadcast-kit';

describe('marketingMessagesRoute', () => {
  const settings: Array<MarketingMessagesSetting | undefined> = ['enabled', 'disabled', 'auto', undefined];
  const statuses = [undefined, 'ONBOARDED', 'ELIGIBLE', 'NOT_STARTED'];

  it.each(['UTILITY', 'AUTHENTICATION', 'SERVICE', 'marketing'])(
    'sends every %s template through Cloud API, whatever the setting and onboarding',
    (category) => {
      for (const setting of settings)
        for (const onboardingStatus of statuses) expect(marketingMessagesRoute({ category, setting, onboardingStatus })).toBe('cloud_api');
    },
  );

  it.each<[MarketingMessagesSetting | undefined, string | undefined, 'marketing_messages' | 'cloud_api']>([
    ['enabled', undefined, 'marketing_messages'],
    ['enabled', 'ELIGIBLE', 'marketing_messages'],
    ['enabled', 'ONBOARDED', 'marketing_messages'],
    ['disabled', 'ONBOARDED', 'cloud_api'],
    ['disabled', undefined, 'cloud_api'],
    ['auto', 'ONBOARDED', 'marketing_messages'],
    ['auto', 'ELIGIBLE', 'cloud_api'],
    ['auto', 'onboarded', 'cloud_api'],
    ['auto', undefined, 'cloud_api'],
    // An account recorded before the setting existed is `auto`.
    [undefined, 'ONBOARDED', 'marketing_messages'],
    [undefined, undefined, 'cloud_api'],
  ])('sends a MARKETING template of a %s account (onboarding %s) through %s', (setting, onboardingStatus, route) => {
    expect(marketingMessagesRoute({ category: 'MARKETING', setting, onboardingStatus })).toBe(route);
  });

  it("needs Meta's onboarding status only for a MARKETING template of an auto account", () => {
    expect(needsOnboardingStatus('MARKETING', 'auto')).toBe(true);
    expect(needsOnboardingStatus('MARKETING', undefined)).toBe(true);
    expect(needsOnboardingStatus('MARKETING', 'enabled')).toBe(false);
    expect(needsOnboardingStatus('MARKETING', 'disabled')).toBe(false);
    expect(needsOnboardingStatus('UTILITY', 'auto')).toBe(false);
  });

  it('adds product_policy CLOUD_API_FALLBACK to the /messages body and changes nothing else', () => {
    const body = { messaging_product: 'whatsapp', to: '1', type: 'template', template: { name: 'promo' } };
    expect(marketingMessagesBody(body)).toEqual({ ...body, product_policy: 'CLOUD_API_FALLBACK' });
    expect(body).not.toHaveProperty('product_policy');
  });
});

describe('CachedMarketingMessagesOnboarding', () => {
  it('reads marketing_messages_onboarding_status once per account and TTL, and never keeps a failed read', async () => {
    const clock = fixedClock('2026-03-01T09:00:00.000Z');
    const upstream = new ScriptedCloudApi(clock);
    upstream.onboardingStatuses.set('waba_1', 'ELIGIBLE');
    const onboarding = new CachedMarketingMessagesOnboarding(upstream, clock, 300_000);
    expect(await onboarding.statusOf(SENDER)).toBe('ELIGIBLE');
    upstream.onboardingStatuses.set('waba_1', 'ONBOARDED');
    clock.advanceBy(299_999);
    expect(await onboarding.statusOf(SENDER)).toBe('ELIGIBLE');
    expect(upstream.onboardingCalls).toBe(1);
    clock.advanceBy(1);
    expect(await onboarding.statusOf(SENDER)).toBe('ONBOARDED');
    expect(await onboarding.statusOf({ ...SENDER, wabaId: 'waba_2' })).toBeUndefined();
    expect(upstream.onboardingCalls).toBe(3);

    const failing = new CachedMarketingMessagesOnboarding(
      { marketingMessagesOnboardingOf: jest.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValueOnce('ONBOARDED') },
      clock,
    );
    await expect(failing.statusOf(SENDER)).rejects.toThrow('down');
    expect(await failing.statusOf(SENDER)).toBe('ONBOARDED');
  });
});

describe('templateRouteOf', () => {
  const setup = () => {
    const marketingMessages = new FixedMarketingMessagesOnboarding();
    return {
      marketingMessages,
      route: (setting: MarketingMessagesSetting | undefined, category = 'MARKETING') =>
        templateRouteOf({ marketingMessages }, { ...SENDER, marketingMessages: setting }, category),
    };
  };

  it('reads the onboarding only for auto + MARKETING, and routes an ONBOARDED account to the API', async () => {
    const kit = setup();
    expect(await kit.route('enabled')).toEqual({ api: 'marketing_messages' });
    expect(await kit.route('disabled')).toEqual({});
    expect(await kit.route('auto', 'UTILITY')).toEqual({});
    expect(kit.marketingMessages.reads).toBe(0);
    expect(await kit.route('auto')).toEqual({});
    kit.marketingMessages.statuses.set(SENDER.wabaId, 'ONBOARDED');
    expect(await kit.route(undefined)).toEqual({ api: 'marketing_messages' });
    expect(kit.marketingMessages.reads).toBe(2);
  });

  it('fails safe: a read that fails routes through Cloud API and does not fail the accept', async () => {
    const kit = setup();
    kit.marketingMessages.statuses.set(SENDER.wabaId, 'ONBOARDED');
    kit.marketingMessages.failure = new Error('Graph API down');
    await expect(kit.route('auto')).resolves.toEqual({});
  });
});

describe('accepting a template broadcast: the route is decided once and travels with the job', () => {
  const NOW = '2026-03-01T09:00:00.000Z';
  function setup(setting: MarketingMessagesSetting | undefined) {
    const clock = fixedClock(NOW);
    const kit = templateBroadcastKit(clock);
    kit.upstream.templates.set(SENDER.wabaId, [template(), template({ id: 'tpl_2', name: 'promo', category: 'MARKETING', body: 'Sale! {{1}}' })]);
    const marketingMessages = new FixedMarketingMessagesOnboarding();
    const scheduledJobs = new InMemoryScheduledJobStore(kit.broadcasts);
    const dependencies: SendTemplateBroadcastDependencies = {
      ...kit.dependencies,
      senders: new InMemorySenderDirectory([{ ...SENDER, ...(setting === undefined ? {} : { marketingMessages: setting }) }]),
      marketingMessages,
      scheduling: { scheduledJobs, firings: new RecordingFiringScheduler(), minLeadSeconds: 60 },
    };
    const promo = (count: number, extra = {}) => broadcastRequest(count, { templateName: 'promo', templateType: 'MARKETING', ...extra }, () => ['20%']);
    const send = (request = promo(1_001)) => sendTemplateBroadcast(dependencies, { organizationId: ORG }, request, { inProgressTimeoutMs: 20_000 });
    const jobOfResult = (jobId: string) => kit.broadcasts.jobs.get(jobId) as Extract<BroadcastJob, { kind: 'template' }>;
    const status = (jobId: string) => getJobStatus(kit.broadcasts, { organizationId: ORG }, jobId, { now: clock.now(), unconfirmedAfterMs: 86_400_000 });
    return { ...kit, marketingMessages, scheduledJobs, promo, send, jobOfResult, status };
  }

  it('a MARKETING broadcast of an enabled account: the job and every chunk message carry api marketing_messages; its status says so', async () => {
    const kit = setup('enabled');
    const result = await kit.send();
    const jobId = (result as { jobId: string }).jobId;
    expect(kit.jobOfResult(jobId).template).toEqual({ name: 'promo', language: 'en_US', category: 'MARKETING', id: 'tpl_2', api: 'marketing_messages' });
    expect(kit.queue.messages).toHaveLength(2);
    for (const message of kit.queue.messages as TemplateChunkMessage[])
      expect(message.template).toEqual({ name: 'promo', language: 'en_US', api: 'marketing_messages' });
    expect(await kit.status(jobId)).toMatchObject({ route: 'marketing_messages' });
    expect(kit.marketingMessages.reads).toBe(0);
  });

  it('a UTILITY broadcast of the same account goes through Cloud API: nothing on the job or the messages', async () => {
    const kit = setup('enabled');
    const jobId = ((await kit.send(broadcastRequest(1_001))) as { jobId: string }).jobId;
    expect(kit.jobOfResult(jobId).template).not.toHaveProperty('api');
    expect((kit.queue.messages as TemplateChunkMessage[]).every((message) => !('api' in message.template))).toBe(true);
    expect(await kit.status(jobId)).toMatchObject({ route: 'cloud_api' });
  });

  it.each<[MarketingMessagesSetting | undefined, string | undefined, boolean]>([
    ['auto', 'ONBOARDED', true],
    ['auto', 'ELIGIBLE', false],
    [undefined, 'ONBOARDED', true],
    ['disabled', 'ONBOARDED', false],
  ])('a MARKETING broadcast of a %s account whose onboarding is %s goes through the API: %s', async (setting, onboarding, viaApi) => {
    const kit = setup(setting);
    if (onboarding) kit.marketingMessages.statuses.set(SENDER.wabaId, onboarding);
    const jobId = ((await kit.send(kit.promo(3))) as { jobId: string }).jobId;
    expect(kit.jobOfResult(jobId).template.api).toBe(viaApi ? 'marketing_messages' : undefined);
    expect((kit.queue.messages[0] as TemplateChunkMessage).template.api).toBe(viaApi ? 'marketing_messages' : undefined);
  });

  it('an auto account whose onboarding cannot be read is accepted and sent through Cloud API', async () => {
    const kit = setup('auto');
    kit.marketingMessages.failure = new Error('Graph API down');
    const jobId = ((await kit.send(kit.promo(3))) as { jobId: string }).jobId;
    expect(kit.jobOfResult(jobId).template).not.toHaveProperty('api');
  });

  it('a scheduled job is routed at accept: its held messages carry the decision to the firing', async () => {
    const kit = setup('enabled');
    const result = await kit.send(kit.promo(2, { scheduledAt: '2026-03-01T10:00:00Z' }));
    const jobId = (result as { jobId: string }).jobId;
    expect(result).toMatchObject({ status: 'SCHEDULED' });
    expect(kit.queue.messages).toHaveLength(0);
    const held = (await kit.scheduledJobs.heldMessages(jobId)) as TemplateChunkMessage[];
    expect(held.map((message) => message.template.api)).toEqual(['marketing_messages']);
  });
});

describe('the chunk message codec', () => {
  it('keeps template.api, and reads a message queued before it (no api) as a /messages send', () => {
    const marketing = chunkMessage(2, { template: { name: 'promo', language: 'en_US', api: 'marketing_messages' } });
    expect(decodeOutboundMessage(encodeOutboundMessage(marketing))).toEqual(marketing);
    const old = JSON.stringify({ ...chunkMessage(1), recipients: [[0, '919800000000', ['Ada']]] });
    expect((decodeOutboundMessage(old) as TemplateChunkMessage).template).toEqual({ name: 'order_update', language: 'en_US' });
    expect(() =>
      decodeOutboundMessage(encodeOutboundMessage(chunkMessage(1, { template: { name: 'x', language: 'en', api: 'other' as 'marketing_messages' } }))),
    ).toThrow();
  });
});
