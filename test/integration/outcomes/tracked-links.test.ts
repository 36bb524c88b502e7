/**
 * Tracked links (docs/OUTCOMES.md "Tracked links"), through the local runtime and the Cloud API
 * sandbox: a broadcast of the demo's tracked-link template (new_arrivals, URL `{clickBaseUrl}/r/{{1}}`)
 * with `trackedUrl`; the token read from the message the sandbox accepted; the redirect counts a
 * person's GET, not a HEAD nor a preview fetcher, and answers an unknown or altered token with the
 * plain page. Also the redirect's p50 (docs/PERFORMANCE.md "Tracked links").
 */
import { DynamoDbOutcomeStore } from '../../../shared/adapters/dynamodb/dynamodb-outcome-store';
import { getServices } from '../../../functions/composition';
import type { TestRuntime } from '../../support/local-runtime';
import { useKitRuntime } from '../broadcast/broadcast-test-kit';
import { postBroadcast, richRecipients } from '../broadcast/rich-templates-kit';
import { runWorkersUntilIdle, DEMO } from '../broadcast/broadcast-test-kit';

jest.setTimeout(60_000);

const DESTINATION = 'https://shop.example/new?utm_source=wa';
const BROWSER = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1';

const tracked = (data: ReturnType<typeof richRecipients>, fields: Record<string, unknown> = {}) => ({
  broadcastName: 'tracked links',
  fromPhoneNumber: DEMO.sender1,
  templateName: 'new_arrivals',
  templateLanguage: 'en',
  templateType: 'MARKETING',
  data,
  ...fields,
});

describe('tracked links', () => {
  let runtime: TestRuntime;
  useKitRuntime((started) => {
    runtime = started;
  });

  const clickBaseUrl = () => runtime.environment.CLICK_BASE_URL!;
  const follow = (url: string, init: { method?: string; userAgent?: string } = {}) =>
    fetch(url, { method: init.method ?? 'GET', redirect: 'manual', headers: { 'user-agent': init.userAgent ?? BROWSER } });
  const outcomes = () => new DynamoDbOutcomeStore(getServices().clients.dynamoDb, runtime.environment.MESSAGING_TABLE!);

  /** Each recipient's button URL as the sandbox accepted it, by number. */
  function linksByRecipient(): Map<string, string> {
    const links = new Map<string, string>();
    for (const message of runtime.sandbox!.acceptedMessages()) {
      const components =
        (message.body as { template?: { components?: Array<{ type: string; parameters?: Array<{ text?: string }> }> } }).template?.components ?? [];
      const button = components.find((component) => component.type === 'button');
      links.set(message.recipient, `${clickBaseUrl()}/r/${button?.parameters?.[0]?.text ?? ''}`);
    }
    return links;
  }

  it('lists the template button as tracked and refuses an http destination, naming the field', async () => {
    const listed = await runtime.call('GET', `/prod/api/v2/broadcast/public/templates?phone_number=${DEMO.sender1}`, {
      headers: { 'x-api-key': runtime.demo.apiKey },
    });
    const template = (listed.body as { data: Array<{ name: string; parameters: { buttons?: unknown[] } }> }).data.find(
      (entry) => entry.name === 'new_arrivals',
    );
    expect(template?.parameters.buttons).toEqual([expect.objectContaining({ index: 0, type: 'URL', tracked: true })]);
    const refused = await postBroadcast(
      runtime,
      tracked(
        richRecipients(1, 9_740_000_000, () => ({ templateParams: ['Ada'] })),
        { buttons: [{ index: 0, type: 'url', trackedUrl: 'http://shop.example/x' }] },
      ),
    );
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toMatch(/buttons\[0\]\.trackedUrl.*https/);
  });

  it('redirects a person and counts each click; HEAD and preview fetchers are redirected uncounted; unknown and altered tokens get the plain page', async () => {
    const data = richRecipients(2, 9_741_000_000, (index) => ({
      templateParams: [`Ada${index}`],
      ...(index === 1 && { buttons: [{ index: 0, type: 'url', trackedUrl: `${DESTINATION}&own=1` }] }),
    }));
    const accepted = await postBroadcast(runtime, tracked(data, { buttons: [{ index: 0, type: 'url', trackedUrl: DESTINATION }] }));
    expect(accepted.status).toBe(200);
    await runWorkersUntilIdle(runtime);
    // A small broadcast answers without its job id: the callback data of what was sent names it (b1:<job>:<chunk>:<index>).
    const jobId = String((runtime.sandbox!.acceptedMessages()[0]!.body as { biz_opaque_callback_data?: string }).biz_opaque_callback_data).split(':')[1]!;
    const links = linksByRecipient();
    const [first, second] = [links.get('919741000000')!, links.get('919741000001')!];
    // No personal data: the number is nowhere in the link.
    expect(first).not.toContain('9741000000');
    expect(first).not.toContain('shop.example');

    const click = await follow(first);
    expect(click.status).toBe(302);
    expect(click.headers.get('location')).toBe(DESTINATION);
    expect(click.headers.get('cache-control')).toBe('no-store');
    expect(click.headers.get('referrer-policy')).toBe('no-referrer');
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // a second click in another second counts again
    expect((await follow(first)).status).toBe(302);
    const head = await follow(first, { method: 'HEAD' });
    expect([head.status, head.headers.get('location')]).toEqual([302, DESTINATION]);
    const preview = await follow(first, { userAgent: 'WhatsApp/2.24.1.6 A' });
    expect([preview.status, preview.headers.get('location')]).toEqual([302, DESTINATION]);
    expect((await outcomes().outcomesOf(jobId, 0)).clicks).toBe(2);

    // The recipient's own destination (kept with its values).
    const own = await follow(second);
    expect(own.headers.get('location')).toBe(`${DESTINATION}&own=1`);
    expect((await outcomes().outcomesOf(jobId, 1)).clicks).toBe(1);

    const token = first.slice(first.lastIndexOf('/') + 1);
    const altered = `${clickBaseUrl()}/r/${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;
    for (const url of [`${clickBaseUrl()}/r/AQAFcHViX3gAAAA`, altered]) {
      const answer = await follow(url);
      expect(answer.status).toBe(404);
      expect(answer.headers.get('location')).toBeNull();
      expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await answer.text()).toContain('This link is not available');
    }
    expect((await outcomes().outcomesOf(jobId, 0)).clicks).toBe(2);
  });

  it('answers the redirect fast (p50 over 200 GETs: docs/PERFORMANCE.md)', async () => {
    const accepted = await postBroadcast(
      runtime,
      tracked(
        richRecipients(1, 9_742_000_000, () => ({ templateParams: ['Ada'] })),
        { buttons: [{ index: 0, type: 'url', trackedUrl: DESTINATION }] },
      ),
    );
    expect(accepted.status).toBe(200);
    await runWorkersUntilIdle(runtime);
    const link = [...linksByRecipient().values()][0]!;
    await follow(link);
    const times: number[] = [];
    for (let round = 0; round < 200; round += 1) {
      const started = performance.now();
      const answer = await follow(link);
      await answer.arrayBuffer();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const p50 = times[Math.floor(times.length / 2)]!;
    process.stdout.write(`tracked-link redirect p50 ${p50.toFixed(1)} ms, p90 ${times[Math.floor(times.length * 0.9)]!.toFixed(1)} ms\n`);
    // The goal is 20 ms; a loaded shared machine gets headroom so the suite does not flake.
    expect(p50).toBeLessThan(60);
  });
});
