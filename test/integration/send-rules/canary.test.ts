/**
 * Issue 39's canary (item 4, "Proof"), through the local runtime, the sandbox and Meta-signed inbound
 * webhooks, on a controllable clock (shiftedClock, the runtime's `overrides`): a campaign of 200 with
 * a canary of 100 sends only the slice; 3 of them reply STOP quoting its message (3 %, over the 1 %
 * threshold); once the clock passes the observation the campaign pauses itself (`pausedBy: "canary"`,
 * CANARY_HALTED, the measured rate beside its threshold) and announces `campaign.paused`; a person's
 * resume sends the rest exactly once, and the campaign's own `haltIf` does not halt it again on the
 * slice's figures. A second campaign within its thresholds goes on by itself and completes.
 * The expander's waits are re-queued every second here (CAMPAIGN_EXPANSION_MAX_DELAY_SECONDS=1).
 * docs/CAMPAIGNS.md "Canary and halt thresholds".
 */
import { shiftedClock } from '../../../shared/ports/clock';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { startScriptedReceiver, type ScriptedReceiver } from '../../support/scripted-receiver';
import { BASE, DEMO, kitEnvironment } from '../broadcast/broadcast-test-kit';
import { audienceOf } from '../campaigns/campaign-test-kit';
import { postInbound } from '../outcomes/outcomes-kit';

// Seconds on an idle machine; longer when several test runs share two cores.
jest.setTimeout(300_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MEMBERS = 200;
const SLICE = 100;
const OBSERVE_MINUTES = 30;

type CustomerEvent = { id: string; type: string; data: Record<string, unknown> };

describe('a canary that halts a bad campaign', () => {
  let runtime: TestRuntime;
  let receiver: ScriptedReceiver;
  const clock = shiftedClock();
  /** One request; a 429 (this suite polls) is waited out, a 503 retried, as the contract says. */
  const call = async (method: string, path: string, body?: unknown) => {
    for (let attempt = 0; ; attempt += 1) {
      const response = await runtime.call(method, `${BASE}${path}`, { headers: { 'x-api-key': runtime.demo.apiKey }, body });
      if ((response.status !== 429 && response.status !== 503) || attempt >= 60) return response;
      await sleep(1_000 * Math.max(1, Number(response.headers.get('retry-after') ?? 1)));
    }
  };
  /** Every message the sandbox accepted for these numbers, by recipient. */
  const sendsTo = (prefix: string) =>
    runtime.sandbox!.acceptedMessages().filter((message) => message.phoneNumberId === DEMO.phoneNumberId1 && message.recipient.startsWith(prefix));
  const view = async (campaignId: string) => (await call('GET', `/campaigns/${campaignId}`)).body.data;
  const viewUntil = (campaignId: string, done: (data: Record<string, any>) => boolean) =>
    eventually(
      () => view(campaignId),
      (data) => data !== undefined && done(data),
      180_000,
      500,
    );

  beforeAll(async () => {
    runtime = await startTestRuntime({
      environment: {
        ...kitEnvironment,
        CAMPAIGN_EXPANSION_MAX_DELAY_SECONDS: '1',
        CANARY_RECHECK_SECONDS: '1',
        HALT_CHECK_SECONDS: '1',
        PAUSE_RECHECK_SECONDS: '1',
      },
      overrides: { clock },
    });
    receiver = await startScriptedReceiver(() => 200);
    expect((await call('POST', '/webhooks', { url: receiver.url, events: ['campaign.paused'] })).status).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await runtime?.close();
  });

  /** A campaign of 200 members (numbers `91<prefix>…`) with the send rules given, launched. */
  async function launched(name: string, prefix: string, rules: Record<string, unknown>): Promise<string> {
    const members = Array.from({ length: MEMBERS }, (_, index) => ({
      countryCode: '91',
      toPhoneNumber: String(Number(`${prefix.slice(2)}0000000`) + index),
      attributes: { first_name: `C${index}` },
    }));
    const audienceId = await audienceOf(call, name, members);
    const created = await call('POST', '/campaigns', {
      name,
      fromPhoneNumber: DEMO.sender1,
      templateName: 'order_update',
      templateLanguage: 'en_US',
      templateType: 'UTILITY',
      audience: { audienceIds: [audienceId] },
      templateParams: [{ attribute: 'first_name', fallback: 'there' }, 'CANARY'],
      ...rules,
    });
    expect(created.status).toBe(201);
    const campaignId = created.body.data.campaignId as string;
    expect((await call('POST', `/campaigns/${campaignId}/launch`)).status).toBe(202);
    return campaignId;
  }

  /** The slice is sent and observed (nothing more goes); `stops` of its people reply STOP quoting their message. */
  async function sliceObserved(campaignId: string, prefix: string, stops: number): Promise<Record<string, any>> {
    const observing = await viewUntil(campaignId, (data) => data.canary?.state === 'observing' && data.canary.observeUntil !== undefined);
    expect(observing.canary.slice).toBe(SLICE);
    expect(sendsTo(prefix)).toHaveLength(SLICE);
    const replies = sendsTo(prefix)
      .slice(0, stops)
      .map((message) => ({ from: message.recipient, text: 'STOP', contextId: message.messageId }));
    await postInbound(runtime, replies);
    if (stops > 0) await viewUntil(campaignId, (data) => data.totals.repliedByStop === stops);
    // The observation holds (the expander looks every second) until the clock passes it.
    await sleep(2_000);
    expect(sendsTo(prefix)).toHaveLength(SLICE);
    expect((await view(campaignId)).canary.state).toBe('observing');
    return observing;
  }

  it('halts on 3 % STOP replies with the measured rate beside its threshold; a resume sends the rest exactly once', async () => {
    const prefix = '91930';
    const haltIf = { optOutRate: 0.01 };
    const campaignId = await launched('Canary halts', prefix, { canary: { count: SLICE, observeMinutes: OBSERVE_MINUTES, haltIf }, haltIf });
    await sliceObserved(campaignId, prefix, 3);

    clock.shiftBy((OBSERVE_MINUTES + 1) * 60_000);
    const paused = await viewUntil(campaignId, (data) => data.state === 'PAUSED');
    const figures = {
      stage: 'canary',
      measured: { optOutRate: 0.03, failureRate: 0, blockRate: 0, qualityDrop: false },
      thresholds: haltIf,
      exceeded: ['optOutRate'],
      sent: SLICE,
      counts: { optOuts: 3, failures: 0, blocks: 0 },
    };
    expect(paused.pause).toMatchObject({ pausedBy: 'canary', reason: 'CANARY_HALTED', failsAt: null, halt: figures });
    expect(paused.canary).toMatchObject({ state: 'halted', slice: SLICE, verdict: figures });
    expect(paused.sendRules).toEqual({ canary: { count: SLICE, observeMinutes: OBSERVE_MINUTES, haltIf }, haltIf });
    const status = (await call('GET', `/status/${paused.jobId}`)).body.data;
    expect(status).toMatchObject({ status: 'PAUSED', pause: { pausedBy: 'canary', reason: 'CANARY_HALTED', halt: figures } });
    const event = await eventually(
      async () =>
        receiver.requests
          .map((request) => JSON.parse(request.rawBody) as CustomerEvent)
          .find((candidate) => candidate.type === 'campaign.paused' && candidate.data.campaignId === campaignId),
      (found) => found !== undefined,
      60_000,
      250,
    );
    expect(event!.data).toMatchObject({ campaignId, state: 'PAUSED', pause: { pausedBy: 'canary', reason: 'CANARY_HALTED', halt: figures } });
    await sleep(2_000);
    expect(sendsTo(prefix)).toHaveLength(SLICE);

    expect((await call('POST', `/campaigns/${campaignId}/resume`)).status).toBe(200);
    const done = await viewUntil(campaignId, (data) => data.state === 'COMPLETED');
    expect(done.totals).toMatchObject({ audience: MEMBERS, sendable: MEMBERS, sent: MEMBERS, repliedByStop: 3 });
    expect(done.canary.state).toBe('halted');
    expect(new Set(sendsTo(prefix).map((message) => message.recipient)).size).toBe(MEMBERS);
    expect(sendsTo(prefix)).toHaveLength(MEMBERS);
    // One halt, one event: the resumed campaign was not judged again on the slice's figures.
    expect(
      receiver.requests
        .map((request) => JSON.parse(request.rawBody) as CustomerEvent)
        .filter((candidate) => candidate.type === 'campaign.paused' && candidate.data.campaignId === campaignId),
    ).toHaveLength(1);
  });

  it('within its thresholds goes on by itself and completes', async () => {
    const prefix = '91931';
    const campaignId = await launched('Canary passes', prefix, {
      canary: { count: SLICE, observeMinutes: OBSERVE_MINUTES, haltIf: { optOutRate: 0.05, failureRate: 0.05 } },
    });
    await sliceObserved(campaignId, prefix, 1);

    clock.shiftBy((OBSERVE_MINUTES + 1) * 60_000);
    const done = await viewUntil(campaignId, (data) => data.state === 'COMPLETED');
    expect(done.canary).toMatchObject({
      state: 'passed',
      slice: SLICE,
      verdict: { stage: 'canary', measured: { optOutRate: 0.01, failureRate: 0 }, exceeded: [], sent: SLICE },
    });
    expect(done.totals).toMatchObject({ audience: MEMBERS, sent: MEMBERS });
    expect(done.pause).toBeUndefined();
    expect(sendsTo(prefix)).toHaveLength(MEMBERS);
    expect(new Set(sendsTo(prefix).map((message) => message.recipient)).size).toBe(MEMBERS);
  });
});
