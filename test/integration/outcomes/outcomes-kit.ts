/**
 * What the outcomes proof (campaign-outcomes.test.ts) needs besides the runtime: the campaign's
 * template with two quick replies and a tracked URL button, Meta-signed `messages` webhooks of
 * many inbound messages per POST (replies with and without `context`, quick-reply taps), and what
 * the sandbox accepted per recipient (the message id a reply quotes, the click token of its button).
 * Not a test file itself.
 */
import { demoIds } from '../../../local/demo-tenant';
import { signWebhookBody } from '../../../shared/meta-app/webhook-signature';
import type { TestRuntime } from '../../support/local-runtime';
import { DEMO } from '../broadcast/broadcast-test-kit';
import { parse } from 'csv-parse/sync';

export const OUTCOME_TEMPLATE = 'outcome_offer';

/**
 * Creates the campaign's MARKETING template on the demo's business account (as a business would,
 * through Graph) and approves it: body `Hi {{1}}`, quick replies 0 "Yes please" and 1 "Not now",
 * URL button 2 `{clickBaseUrl}/r/{{1}}`, the platform's tracked link (docs/OUTCOMES.md "Tracked links").
 */
export async function createOutcomeTemplate(runtime: TestRuntime, clickBaseUrl: string): Promise<void> {
  const response = await fetch(`${runtime.sandbox!.url}/v25.0/${DEMO.wabaId}/message_templates`, {
    method: 'POST',
    headers: { authorization: `Bearer ${demoIds.upstreamToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: OUTCOME_TEMPLATE,
      language: 'en',
      category: 'MARKETING',
      components: [
        { type: 'BODY', text: 'Hi {{1}}, the spring offer is here.', example: { body_text: [['Ada']] } },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'QUICK_REPLY', text: 'Yes please' },
            { type: 'QUICK_REPLY', text: 'Not now' },
            { type: 'URL', text: 'Shop', url: `${clickBaseUrl}/r/{{1}}`, example: [`${clickBaseUrl}/r/example`] },
          ],
        },
      ],
    }),
  });
  const created = (await response.json()) as { id?: string };
  if (!response.ok || typeof created.id !== 'string') throw new Error(`creating ${OUTCOME_TEMPLATE} failed: ${JSON.stringify(created)}`);
  runtime.sandbox!.setTemplateStatus(created.id, 'APPROVED');
}

/** One sent message of the campaign as the sandbox accepted it. */
export interface SentMessage {
  /** Meta's message id (a reply's `context.id`). */
  messageId: string;
  /** The suffix the platform put into the tracked URL button (the click token). */
  token: string;
}

/** Every message the sandbox accepted from the demo's first number, by recipient (digits). */
export function sentMessages(runtime: TestRuntime): Map<string, SentMessage[]> {
  const byRecipient = new Map<string, SentMessage[]>();
  for (const message of runtime.sandbox!.acceptedMessages()) {
    if (message.phoneNumberId !== DEMO.phoneNumberId1) continue;
    const components =
      (message.body as { template?: { components?: Array<{ type: string; sub_type?: string; parameters?: Array<{ text?: string }> }> } }).template
        ?.components ?? [];
    const url = components.find((component) => component.type === 'button' && component.sub_type === 'url');
    const list = byRecipient.get(message.recipient) ?? [];
    list.push({ messageId: message.messageId, token: url?.parameters?.[0]?.text ?? '' });
    byRecipient.set(message.recipient, list);
  }
  return byRecipient;
}

/** An inbound message as the test describes it; `from` digits and/or `userId` (a BSUID). */
export interface Inbound {
  from?: string;
  userId?: string;
  /** Text body (type `text`), unless `button` is given. */
  text?: string;
  /** A quick-reply tap (type `button`): Meta's payload and the button's text. */
  button?: { payload: string; text: string };
  /** The message id the user replied to (Meta's `context.id`). */
  contextId?: string;
  /** Meta's time of the message (epoch seconds); default now. */
  timestamp?: number;
}

let sequence = 0;

/** Meta's `messages[]` entry of one inbound message. */
function metaMessage(inbound: Inbound, now: number): Record<string, unknown> {
  sequence += 1;
  return {
    ...(inbound.from ? { from: inbound.from } : {}),
    ...(inbound.userId ? { from_user_id: inbound.userId } : {}),
    id: `wamid.HBgLoutcome${String(sequence).padStart(26, '0')}`,
    timestamp: String(inbound.timestamp ?? now),
    ...(inbound.contextId ? { context: { from: DEMO.sender1, id: inbound.contextId } } : {}),
    ...(inbound.button ? { type: 'button', button: inbound.button } : { type: 'text', text: { body: inbound.text ?? 'Hello' } }),
  };
}

/**
 * Posts the messages as Meta does under load: one signed `messages` change of up to `perPost`
 * messages (the change's `contacts` naming their senders) per POST to the runtime's webhook endpoint.
 */
export async function postInbound(runtime: TestRuntime, messages: readonly Inbound[], perPost = 50): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  for (let start = 0; start < messages.length; start += perPost) {
    const part = messages.slice(start, start + perPost);
    const body = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: DEMO.wabaId,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: DEMO.sender1, phone_number_id: DEMO.phoneNumberId1 },
                contacts: part.map((inbound) => ({
                  profile: { name: 'Customer' },
                  ...(inbound.from ? { wa_id: inbound.from } : {}),
                  ...(inbound.userId ? { user_id: inbound.userId } : {}),
                })),
                messages: part.map((inbound) => metaMessage(inbound, now)),
              },
            },
          ],
        },
      ],
    };
    const raw = JSON.stringify(body);
    const headers = { 'X-Hub-Signature-256': signWebhookBody(raw, runtime.demo.metaAppSecret) };
    // Meta retries a POST the endpoint did not accept; so does this (a loaded machine's queue may time out).
    let answer = await runtime.call('POST', '/hooks/meta/whatsapp', { rawBody: raw, headers });
    for (let attempt = 1; answer.status >= 500 && attempt < 6; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
      answer = await runtime.call('POST', '/hooks/meta/whatsapp', { rawBody: raw, headers });
    }
    if (answer.status !== 200) throw new Error(`the webhook endpoint answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
}

/** A GET (or HEAD) of a click URL without following the redirect. */
export async function open(
  url: string,
  options: { method?: 'GET' | 'HEAD'; userAgent?: string } = {},
): Promise<{ status: number; location: string | null; type: string | null; text: string }> {
  const request = () =>
    fetch(url, {
      method: options.method ?? 'GET',
      redirect: 'manual',
      headers: { 'user-agent': options.userAgent ?? 'Mozilla/5.0 (Linux; Android 14) Mobile Safari/537.36' },
    });
  let response = await request();
  // A loaded machine's local store may time out (503, or 500 for a key read that timed out): a person taps again.
  for (let attempt = 1; response.status >= 500 && attempt < 4; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 300 * attempt));
    response = await request();
  }
  return { status: response.status, location: response.headers.get('location'), type: response.headers.get('content-type'), text: await response.text() };
}

/** Rows of a CSV answer as objects keyed by the header row (csv-parse: RFC 4180 quoting, CRLF). */
export function csvRows(text: string): Array<Record<string, string>> {
  return parse(text, { columns: true, skip_empty_lines: true, relax_column_count: true }) as Array<Record<string, string>>;
}
