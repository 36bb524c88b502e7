/**
 * Helpers of the rich-template suites (issue 24; not a test file itself): broadcasts of the demo's
 * rich templates (local/demo-rich-templates.ts) and of templates a suite creates on the sandbox,
 * media uploaded through /upstream, and Meta's `template.components` as the sandbox accepted them.
 *
 * The expected components are written out here in Meta's shapes (../shared/meta/template-components.md
 * §2–§6), not built with the platform's own builder, so a test compares the platform against Meta's
 * documented form rather than against itself.
 */
import { demoIds } from '../../../local/demo-tenant';
import type { AcceptedMessage } from '../../../sandbox/cloud-api-sandbox';
import type { TestResponse, TestRuntime } from '../../support/local-runtime';
import { multipartCall, PNG_1X1 } from '../upstream/upstream-kit';
import { BASE, DEMO, issueKey, keyHeader, runWorkersUntilIdle } from './broadcast-test-kit';

/** Name, language and category of every template these suites send (demo ones and created ones). */
export const RICH = {
  order_shipped: { templateLanguage: 'en_US', templateType: 'UTILITY' },
  summer_coupon: { templateLanguage: 'en', templateType: 'MARKETING' },
  welcome_named: { templateLanguage: 'en_US', templateType: 'UTILITY' },
  spring_carousel: { templateLanguage: 'en', templateType: 'MARKETING' },
  flash_deal: { templateLanguage: 'en', templateType: 'MARKETING' },
  order_update: { templateLanguage: 'en_US', templateType: 'UTILITY' },
  promo_video: { templateLanguage: 'en_US', templateType: 'UTILITY' },
  invoice_ready: { templateLanguage: 'en_US', templateType: 'UTILITY' },
  pickup_point: { templateLanguage: 'en_US', templateType: 'UTILITY' },
  visit_store: { templateLanguage: 'en_US', templateType: 'UTILITY' },
  catalog_promo: { templateLanguage: 'en', templateType: 'MARKETING' },
  bundle_promo: { templateLanguage: 'en', templateType: 'MARKETING' },
} as const;
export type RichTemplateName = keyof typeof RICH;

/** Templates the demo lacks, in Meta's creation shape; created on the sandbox by `createTemplates`. */
export const CREATED_TEMPLATES: Record<string, Record<string, unknown>> = {
  promo_video: {
    category: 'UTILITY',
    components: [
      { type: 'HEADER', format: 'VIDEO', example: { header_handle: ['https://scontent.whatsapp.net/v/demo-retail/promo.mp4'] } },
      { type: 'BODY', text: 'Hi {{1}}, see what is new.', example: { body_text: [['Ada']] } },
    ],
  },
  invoice_ready: {
    category: 'UTILITY',
    components: [
      { type: 'HEADER', format: 'DOCUMENT', example: { header_handle: ['https://scontent.whatsapp.net/v/demo-retail/invoice.pdf'] } },
      { type: 'BODY', text: 'Invoice {{1}} is attached.', example: { body_text: [['INV-1']] } },
    ],
  },
  pickup_point: {
    category: 'UTILITY',
    components: [
      { type: 'HEADER', format: 'LOCATION' },
      { type: 'BODY', text: 'Order {{1}} waits for you here.', example: { body_text: [['A-1']] } },
    ],
  },
  /** A URL button without a variable: nothing to fill. */
  visit_store: {
    category: 'UTILITY',
    components: [
      { type: 'BODY', text: 'Thanks {{1}}!', example: { body_text: [['Ada']] } },
      { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Visit', url: 'https://shop.example/stores' }] },
    ],
  },
  catalog_promo: {
    category: 'MARKETING',
    components: [
      { type: 'BODY', text: 'Browse our catalog.' },
      { type: 'BUTTONS', buttons: [{ type: 'CATALOG', text: 'View catalog' }] },
    ],
  },
  bundle_promo: {
    category: 'MARKETING',
    components: [
      { type: 'BODY', text: 'Bundles for you.' },
      { type: 'BUTTONS', buttons: [{ type: 'MPM', text: 'View items' }] },
    ],
  },
};

/**
 * Creates `names` on the demo's first business account through Graph (as a business would, with
 * the account's token) and approves them. Before the first broadcast: the platform caches the
 * template list.
 */
export async function createTemplates(runtime: TestRuntime, names: readonly (keyof typeof CREATED_TEMPLATES)[]): Promise<void> {
  for (const name of names) {
    const { templateLanguage } = RICH[name as RichTemplateName];
    const response = await fetch(`${runtime.sandbox!.url}/v25.0/${DEMO.wabaId}/message_templates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demoIds.upstreamToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, language: templateLanguage, ...CREATED_TEMPLATES[name] }),
    });
    const created = (await response.json()) as { id?: string; error?: unknown };
    if (!response.ok || typeof created.id !== 'string') throw new Error(`creating template ${name} failed: ${JSON.stringify(created)}`);
    runtime.sandbox!.setTemplateStatus(created.id, 'APPROVED');
  }
}

/** Uploads a 1x1 PNG through /upstream as the organization owning `phoneNumberId` (`token`: its /upstream token); the media id. */
export async function uploadImage(
  runtime: TestRuntime,
  phoneNumberId: string = DEMO.phoneNumberId1,
  token: string = runtime.demo.accessToken,
): Promise<string> {
  const response = await multipartCall(
    runtime,
    `/phone-numbers/${phoneNumberId}/media`,
    [{ name: 'file', value: PNG_1X1, filename: 'a.png', type: 'image/png' }],
    token,
  );
  if (response.status !== 200 || typeof response.body?.id !== 'string') throw new Error(`upload failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.id;
}

export type RichRecipient = { countryCode: string; toPhoneNumber: string } & Record<string, unknown>;

/** `count` recipients +91 <first + i>, each with `own(i)` merged in (templateParams, header, buttons, …). */
export function richRecipients(count: number, first: number, own: (index: number) => Record<string, unknown> = () => ({})): RichRecipient[] {
  return Array.from({ length: count }, (_, index) => ({ countryCode: '91', toPhoneNumber: String(first + index), ...own(index) }));
}

/** A send-template-broadcast body of `template` from sender 1. */
export function richBroadcast(template: RichTemplateName, data: RichRecipient[], fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { broadcastName: `rich ${template}`, fromPhoneNumber: DEMO.sender1, templateName: template, ...RICH[template], data, ...fields };
}

/** POST with a key of its own (the 10/min limit per key and sender never interferes). */
export async function postBroadcast(runtime: TestRuntime, body: unknown): Promise<TestResponse> {
  const key = await issueKey(runtime.demo.organizationId);
  return runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(key.secret), body });
}

type Components = Array<Record<string, unknown>>;

/**
 * The `template.components` the sandbox accepted, by recipient number (digits); fails when a
 * recipient got other than exactly one message, or a message is not a template of `template`.
 */
export function componentsByRecipient(runtime: TestRuntime, template: string): Map<string, Components | undefined> {
  const byRecipient = new Map<string, AcceptedMessage[]>();
  for (const message of runtime.sandbox!.acceptedMessages()) byRecipient.set(message.recipient, [...(byRecipient.get(message.recipient) ?? []), message]);
  const components = new Map<string, Components | undefined>();
  for (const [recipient, messages] of byRecipient) {
    if (messages.length !== 1) throw new Error(`${recipient} was accepted ${messages.length} times`);
    const body = messages[0]!.body as { template?: { name?: string; components?: Components } };
    if (body.template?.name !== template) throw new Error(`${recipient} got ${JSON.stringify(body.template?.name)}, not ${template}`);
    components.set(recipient, body.template.components);
  }
  return components;
}

/** The full number (digits) of a recipient, as the sandbox logs it. */
export const numberOf = (recipient: RichRecipient): string => `${recipient.countryCode}${recipient.toPhoneNumber}`;

/* Meta's send shapes (template-components.md), written out. */
export const header = (parameter: Record<string, unknown>) => ({ type: 'header', parameters: [parameter] });
export const body = (...texts: string[]) => ({ type: 'body', parameters: texts.map((text) => ({ type: 'text', text })) });
export const namedBody = (values: Record<string, string>) => ({
  type: 'body',
  parameters: Object.entries(values).map(([name, text]) => ({ type: 'text', parameter_name: name, text })),
});
export const urlButton = (index: number, text: string) => ({ type: 'button', sub_type: 'url', index: String(index), parameters: [{ type: 'text', text }] });
export const quickReply = (index: number, payload: string) => ({
  type: 'button',
  sub_type: 'quick_reply',
  index: String(index),
  parameters: [{ type: 'payload', payload }],
});
export const copyCode = (index: number, code: string) => ({
  type: 'button',
  sub_type: 'copy_code',
  index: String(index),
  parameters: [{ type: 'coupon_code', coupon_code: code }],
});

/** Sends, expects 200, runs the workers, and returns what the sandbox accepted by recipient. */
export async function deliverBroadcast(runtime: TestRuntime, broadcast: Record<string, unknown>) {
  const response = await postBroadcast(runtime, broadcast);
  expect(response.status).toBe(200);
  await runWorkersUntilIdle(runtime);
  return componentsByRecipient(runtime, broadcast.templateName as string);
}
