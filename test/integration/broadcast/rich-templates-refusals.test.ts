/**
 * Rich templates (issue 24): every rule of the accept-time content check, through the local
 * runtime. Each request is a 400 with its code and a message naming the field (and, for a
 * recipient's own value, `data[i]`); nothing is recorded or queued, and after the real chunk worker
 * had its chance the sandbox received nothing. Last, the sandbox itself refuses, as Meta does
 * (132012), a media-header template sent without its header through /upstream.
 */
import { demoIds } from '../../../local/demo-tenant';
import type { TestRuntime } from '../../support/local-runtime';
import { wrapperCall } from '../upstream/upstream-kit';
import { DEMO, jobCount, queueDepth, runWorkersUntilIdle, useKitRuntime } from './broadcast-test-kit';
import { body, createTemplates, postBroadcast, richBroadcast, richRecipients, uploadImage, urlButton, type RichRecipient } from './rich-templates-kit';

jest.setTimeout(30_000);

const IMAGE = { type: 'image', link: 'https://cdn.example.com/p.jpg' };
const TRACK = [{ index: 0, type: 'url', text: 'A-1' }];
/** Three recipients of a positional template with `count` body values each, `own(i)` merged in. */
const three = (count: number, own: (index: number) => Record<string, unknown> = () => ({})): RichRecipient[] =>
  richRecipients(3, 9_740_000_000, (index) => ({
    ...(count > 0 && { templateParams: Array.from({ length: count }, (_, at) => `v${index}-${at}`) }),
    ...own(index),
  }));
/** order_shipped (image header, body of 2, dynamic URL button 0) with `fields` at the broadcast level. */
const shipped = (data: RichRecipient[], fields: Record<string, unknown> = {}) => richBroadcast('order_shipped', data, fields);
const card = (slug: string) => ({ header: IMAGE, templateParams: [slug], buttons: [{ index: 0, type: 'url', text: slug }] });
const named = (data: RichRecipient[], fields: Record<string, unknown> = {}) => richBroadcast('welcome_named', data, fields);
const coupon = (data: RichRecipient[], fields: Record<string, unknown>) =>
  richBroadcast('summer_coupon', data, { header: { type: 'text', text: 'friend' }, ...fields });
const flash = (fields: Record<string, unknown>) =>
  richBroadcast('flash_deal', three(1), {
    limitedTimeOffer: { expiresAt: '2031-01-01T00:00:00Z' },
    buttons: [
      { index: 0, type: 'copy_code', couponCode: 'FLASH15' },
      { index: 1, type: 'url', text: 'f' },
    ],
    ...fields,
  });

interface Refusal {
  name: string;
  body: () => Record<string, unknown>;
  code: 'TEMPLATE_CONTENT' | 'VALIDATION_FAILED' | 'TEMPLATE_PARAMETER_COUNT' | 'TEMPLATE_NOT_SENDABLE';
  /** Every pattern must appear in the message: the field (with data[i] for a recipient's own value), and the rule. */
  message: RegExp[];
}

describe('rich templates: refusals at accept', () => {
  let runtime: TestRuntime;
  let organizationId: string;
  let foreignMedia = '';

  useKitRuntime(async (started) => {
    runtime = started;
    organizationId = runtime.demo.organizationId;
    await createTemplates(runtime, ['visit_store', 'catalog_promo', 'bundle_promo']);
    const other = runtime.demo.otherOrg;
    foreignMedia = await uploadImage(runtime, other.phoneNumberId, other.accessToken);
  });

  const refusals: Refusal[] = [
    {
      name: 'a media-header template without a header',
      body: () => shipped(three(2), { buttons: TRACK }),
      code: 'TEMPLATE_CONTENT',
      message: [/^data\[0\]\.header is required/, /IMAGE header/, /at the broadcast level or in data\[0\]\.header/],
    },
    {
      name: 'a media-header template: recipient 2 without a header of its own, none at the broadcast level',
      body: () =>
        shipped(
          three(2, (index) => (index < 2 ? { header: IMAGE } : {})),
          { buttons: TRACK },
        ),
      code: 'TEMPLATE_CONTENT',
      message: [/^data\[2\]\.header is required/],
    },
    {
      name: 'the wrong media type (broadcast)',
      body: () => shipped(three(2), { header: { type: 'video', link: 'https://cdn.example.com/v.mp4' }, buttons: TRACK }),
      code: 'TEMPLATE_CONTENT',
      message: [/^header\.type must be image/, /IMAGE header/],
    },
    {
      name: 'the wrong media type (recipient 1)',
      body: () =>
        shipped(
          three(2, (index) => (index === 1 ? { header: { type: 'document', link: 'https://cdn.example.com/d.pdf' } } : {})),
          { header: IMAGE, buttons: TRACK },
        ),
      code: 'TEMPLATE_CONTENT',
      message: [/^data\[1\]\.header\.type must be image/],
    },
    {
      name: 'a dynamic URL button without its value',
      body: () => shipped(three(2), { header: IMAGE }),
      code: 'TEMPLATE_CONTENT',
      message: [/^data\[0\]\.buttons must give button 0/, /URL button/],
    },
    {
      name: 'a URL button without text (recipient 1)',
      body: () =>
        shipped(
          three(2, (index) => (index === 1 ? { buttons: [{ index: 0, type: 'url' }] } : {})),
          { header: IMAGE, buttons: TRACK },
        ),
      code: 'VALIDATION_FAILED',
      message: [/^data\[1\]\.buttons\[0\]\.text /],
    },
    {
      name: 'a button index the template lacks',
      body: () => shipped(three(2), { header: IMAGE, buttons: [...TRACK, { index: 3, type: 'quick_reply', payload: 'X' }] }),
      code: 'TEMPLATE_CONTENT',
      message: [/^buttons\[1\]\.index 3 is not a button of template order_shipped/, /buttons 0\.\.0/],
    },
    {
      name: 'a button of the wrong type (recipient 0)',
      body: () =>
        shipped(
          three(2, (index) => (index === 0 ? { buttons: [{ index: 0, type: 'quick_reply', payload: 'X' }] } : {})),
          { header: IMAGE, buttons: TRACK },
        ),
      code: 'TEMPLATE_CONTENT',
      message: [/^data\[0\]\.buttons\[0\]\.type quick_reply does not match button 0/, /URL button/],
    },
    {
      name: 'a value for a static URL button',
      body: () => richBroadcast('visit_store', three(1), { buttons: TRACK }),
      code: 'TEMPLATE_CONTENT',
      message: [/^buttons\[0\] is not expected/, /URL button without a variable/],
    },
    {
      name: 'a carousel of 1 card for a 2-card template',
      body: () => richBroadcast('spring_carousel', three(1), { carousel: [card('a')] }),
      code: 'TEMPLATE_CONTENT',
      message: [/^carousel has 1 card;/, /exactly 2/],
    },
    {
      name: 'a carousel of 3 cards (recipient 1)',
      body: () =>
        richBroadcast(
          'spring_carousel',
          three(1, (index) => (index === 1 ? { carousel: [card('a'), card('b'), card('c')] } : {})),
          { carousel: [card('a'), card('b')] },
        ),
      code: 'TEMPLATE_CONTENT',
      message: [/^data\[1\]\.carousel has 3 cards/],
    },
    {
      name: 'a named parameter missing (broadcast)',
      body: () => named(three(0), { globalTemplateParams: { first_name: 'Ada' } }),
      code: 'TEMPLATE_CONTENT',
      message: [/^globalTemplateParams is missing store/],
    },
    {
      name: 'a named parameter missing (recipient 1)',
      body: () =>
        named(
          three(0, (index) => (index === 1 ? { templateParams: { first_name: 'Ada' } } : {})),
          { globalTemplateParams: { first_name: 'A', store: 'S' } },
        ),
      code: 'TEMPLATE_CONTENT',
      message: [/^data\[1\]\.templateParams is missing store/],
    },
    {
      name: 'an unknown named parameter (recipient 0)',
      body: () => named(three(0, () => ({ templateParams: { first_name: 'Ada', store: 'S', city: 'Oslo' } }))),
      code: 'TEMPLATE_CONTENT',
      message: [/^data\[0\]\.templateParams\.city is not a parameter of template welcome_named/],
    },
    {
      name: 'an array given to a named template',
      body: () => named(three(2)),
      code: 'TEMPLATE_CONTENT',
      message: [/^data\[0\]\.templateParams must be an object of values by name/, /first_name, store/],
    },
    {
      name: 'an object given to a positional template (recipient 1)',
      body: () =>
        richBroadcast(
          'order_update',
          three(2, (index) => (index === 1 ? { templateParams: { first_name: 'Ada' } } : {})),
        ),
      code: 'TEMPLATE_CONTENT',
      message: [/^data\[1\]\.templateParams must be an array/],
    },
    {
      name: 'the wrong body count on a rich template (recipient 2)',
      body: () =>
        shipped(
          three(2, (index) => (index === 2 ? { templateParams: ['only'] } : {})),
          { header: IMAGE, buttons: TRACK },
        ),
      code: 'TEMPLATE_PARAMETER_COUNT',
      message: [/^data\[2\]\.templateParams has 1 values/, /needs exactly 2/],
    },
    {
      name: 'a copy code over 20 characters (recipient 0)',
      body: () =>
        coupon(
          three(0, (index) => (index === 0 ? { buttons: [{ index: 0, type: 'copy_code', couponCode: 'C'.repeat(21) }] } : {})),
          { buttons: [{ index: 0, type: 'copy_code', couponCode: 'OK' }] },
        ),
      code: 'VALIDATION_FAILED',
      message: [/^data\[0\]\.buttons\[0\]\.couponCode /, /at most 20 characters/],
    },
    {
      name: 'a copy code over 15 characters in the limited-time offer',
      body: () =>
        flash({
          buttons: [
            { index: 0, type: 'copy_code', couponCode: 'F'.repeat(16) },
            { index: 1, type: 'url', text: 'f' },
          ],
        }),
      code: 'TEMPLATE_CONTENT',
      message: [/^buttons\[0\]\.couponCode must be at most 15 characters/],
    },
    {
      name: "a URL suffix longer than the button's room (recipient 1)",
      body: () =>
        shipped(
          three(2, (index) => (index === 1 ? { buttons: [{ index: 0, type: 'url', text: 'x'.repeat(1974) }] } : {})),
          { header: IMAGE, buttons: TRACK },
        ),
      code: 'TEMPLATE_CONTENT',
      message: [/^data\[1\]\.buttons\[0\]\.text must be at most 1973 characters/],
    },
    {
      name: "a header text longer than the header's room",
      body: () => coupon(three(0), { header: { type: 'text', text: 'h'.repeat(55) }, buttons: [{ index: 0, type: 'copy_code', couponCode: 'OK' }] }),
      code: 'TEMPLATE_CONTENT',
      message: [/^header\.text must be at most 54 characters/],
    },
    {
      name: 'an http:// media link',
      body: () => shipped(three(2), { header: { type: 'image', link: 'http://cdn.example.com/p.jpg' }, buttons: TRACK }),
      code: 'VALIDATION_FAILED',
      message: [/^header\.link /, /https:\/\//],
    },
    {
      name: 'an http:// media link (recipient 2)',
      body: () =>
        shipped(
          three(2, (index) => (index === 2 ? { header: { type: 'image', link: 'http://cdn.example.com/p.jpg' } } : {})),
          { header: IMAGE, buttons: TRACK },
        ),
      code: 'VALIDATION_FAILED',
      message: [/^data\[2\]\.header\.link /, /https:\/\//],
    },
    {
      name: "another organization's media id (recipient 1)",
      body: () =>
        shipped(
          three(2, (index) => (index === 1 ? { header: { type: 'image', mediaId: foreignMedia } } : {})),
          { header: IMAGE, buttons: TRACK },
        ),
      code: 'TEMPLATE_CONTENT',
      message: [/^data\[1\]\.header\.mediaId \d+ is not a media id this organization uploaded/],
    },
    {
      name: 'a header for a template without one',
      body: () => richBroadcast('order_update', three(2), { header: { type: 'text', text: 'Hi' } }),
      code: 'TEMPLATE_CONTENT',
      message: [/^header is not expected: template order_update has no header/],
    },
    {
      name: 'a header for a template without one (recipient 0)',
      body: () =>
        richBroadcast(
          'order_update',
          three(2, (index) => (index === 0 ? { header: IMAGE } : {})),
        ),
      code: 'TEMPLATE_CONTENT',
      message: [/^data\[0\]\.header is not expected/],
    },
    {
      name: 'a limited-time offer that has expired',
      body: () => flash({ limitedTimeOffer: { expiresAt: '2020-01-01T00:00:00Z' } }),
      code: 'TEMPLATE_CONTENT',
      message: [/^limitedTimeOffer\.expiresAt must be after/],
    },
    {
      name: 'a template with a CATALOG button',
      body: () => richBroadcast('catalog_promo', three(0)),
      code: 'TEMPLATE_NOT_SENDABLE',
      message: [/^template catalog_promo \(en\) cannot be sent by broadcast/, /buttons\[0\]: CATALOG buttons/],
    },
    {
      name: 'a template with an MPM button',
      body: () => richBroadcast('bundle_promo', three(0)),
      code: 'TEMPLATE_NOT_SENDABLE',
      message: [/^template bundle_promo \(en\) cannot be sent by broadcast/, /MPM buttons/],
    },
  ];

  it.each(refusals)('refuses $name: 400 $code, the field named, nothing recorded, queued or sent', async (refusal) => {
    const jobsBefore = await jobCount(organizationId);
    const response = await postBroadcast(runtime, refusal.body());

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: false, status_code: 400, data: { error: { code: refusal.code } } });
    for (const pattern of refusal.message) expect(response.body.message).toMatch(pattern);
    expect(response.body.data.error.message).toBe(response.body.message);

    expect(await queueDepth(runtime)).toBe(0);
    expect(await jobCount(organizationId)).toBe(jobsBefore);
    await runWorkersUntilIdle(runtime);
    expect(runtime.sandbox!.acceptedMessages()).toHaveLength(0);
  });

  it('the sandbox, like Meta, refuses a media-header template sent without its header: 132012 passed through /upstream', async () => {
    const template = { name: 'order_shipped', language: { code: 'en_US' }, components: [body('Ada', 'A-1'), urlButton(0, 'A-1')] };
    const response = await wrapperCall(runtime, 'POST', `/phone-numbers/${DEMO.phoneNumberId1}/messages`, {
      body: { to: '15557771000', type: 'template', template },
    });
    expect(response.status).toBe(400);
    // The contract's error shape (spec: message, type, code, error_subcode, fbtrace_id): Meta's code and message.
    expect(response.body).toMatchObject({ status: false, message: expect.stringMatching(/^\(#132012\)/), error: { code: 132012, type: 'OAuthException' } });

    // Meta's details, straight from the sandbox's Graph API (the wrapper's contract has no error_data).
    const direct = await fetch(`${runtime.sandbox!.url}/v25.0/${DEMO.phoneNumberId1}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demoIds.upstreamToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messaging_product: 'whatsapp', to: '15557771000', type: 'template', template }),
    });
    expect(direct.status).toBe(400);
    expect(((await direct.json()) as { error: unknown }).error).toMatchObject({
      code: 132012,
      error_data: { details: 'header: Format mismatch, expected IMAGE, received UNKNOWN' },
    });
    expect(runtime.sandbox!.acceptedMessages()).toHaveLength(0);
  });
});
