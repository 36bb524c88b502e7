/**
 * POST /broadcast/public/send-freeform through the local gateway, the handler, the queue, the
 * chunk worker and the Cloud API sandbox (docs/FREEFORM-AND-EARLIER.md).
 *
 * - Each of the eight types (and the limits, inclusive) is accepted: 200, the exact envelope,
 *   `data: {}`; the sandbox's inspection log then shows the exact request sent upstream, in Meta's
 *   shape, and the ledger holds its message id (found by message id through gsi1, as a delivery
 *   event would be matched).
 * - Every rule: 400 whose message names the field path and the rule; no job, nothing upstream.
 * - The sender must be the organization's (and the bound number of a bound key): 401.
 * - 20 per minute per key and fromPhoneNumber: the 21st is 429 with Retry-After.
 * - A failure upstream (131047, outside the 24-hour window) is recorded as the recipient's outcome.
 *
 * The free-form limit counts rejected requests too (after authentication and JSON parsing), so
 * every case uses a fresh key: its own bucket.
 */
import { getServices } from '../../../functions/composition';
import type { AcceptedMessage } from '../../../sandbox/cloud-api-sandbox';
import { chunkProgressOf } from '../../support/chunk-progress';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import {
  BASE,
  DEMO,
  LEDGER_CALLBACK_DATA,
  ensureMinuteHeadroom,
  issueKey,
  jobCount,
  keyHeader,
  kitEnvironment,
  latestJobId,
  ledgerOf,
} from '../broadcast/broadcast-test-kit';
import { expectFreshBucketRetryAfter } from '../../support/rate-limit-expectations';

type Body = Record<string, unknown>;

/** Waits below (eventually, minute headroom) outlast jest's 5 s default. */
jest.setTimeout(30_000);

const long = (length: number, fill = 'x') => fill.repeat(length);
const reply = (id: string, title: string) => ({ type: 'reply', reply: { id, title } });
const rows = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, index) => ({ id: `${prefix}-${index}`, title: `Option ${prefix}${index}`, description: `About ${prefix}${index}` }));

const buttonMessage = (overrides: Body = {}): Body => ({
  type: 'button',
  header: { type: 'text', text: 'Your order' },
  body: { text: 'Did the parcel arrive in good shape?' },
  footer: { text: 'Demo Retail' },
  action: { buttons: [reply('yes', 'Yes'), reply('no', 'No')] },
  ...overrides,
});
const listMessage = (overrides: Body = {}): Body => ({
  type: 'list',
  header: { type: 'text', text: 'Delivery slots' },
  body: { text: 'Pick a slot for your delivery' },
  action: { button: 'See slots', sections: [{ title: 'Morning', rows: rows(2, 'am') }] },
  ...overrides,
});
const listWith = (sections: unknown[], overrides: Body = {}): Body => listMessage({ action: { button: 'See slots', sections }, ...overrides });

interface AcceptedCase {
  name: string;
  request: Body;
  /** Meta's type-specific object, under the key named by `type`. */
  upstream: Body;
}

/** Recipients of accepted cases: one each, so each case finds exactly its own upstream request. */
let nextRecipient = 447_700_900_100;
const recipient = () => String(nextRecipient++);

const acceptedCases: AcceptedCase[] = [
  { name: 'text', request: { type: 'text', text: 'Your parcel is on its way' }, upstream: { text: { preview_url: false, body: 'Your parcel is on its way' } } },
  {
    name: 'image with caption',
    request: { type: 'image', url: 'https://cdn.example.com/media/parcel.jpeg?size=large', caption: 'Your parcel' },
    upstream: { image: { link: 'https://cdn.example.com/media/parcel.jpeg?size=large', caption: 'Your parcel' } },
  },
  {
    name: 'image without caption (.PNG)',
    request: { type: 'image', url: 'http://cdn.example.com/LOGO.PNG' },
    upstream: { image: { link: 'http://cdn.example.com/LOGO.PNG' } },
  },
  {
    name: 'sticker',
    request: { type: 'sticker', url: 'https://cdn.example.com/stickers/thanks.webp' },
    upstream: { sticker: { link: 'https://cdn.example.com/stickers/thanks.webp' } },
  },
  {
    name: 'document with name and caption',
    request: { type: 'document', url: 'https://files.example.com/invoices/march.pdf', name: 'Invoice March.pdf', caption: 'Your invoice' },
    upstream: { document: { link: 'https://files.example.com/invoices/march.pdf', filename: 'Invoice March.pdf', caption: 'Your invoice' } },
  },
  {
    name: 'document (.xlsx) alone',
    request: { type: 'document', url: 'http://files.example.com/report.xlsx' },
    upstream: { document: { link: 'http://files.example.com/report.xlsx' } },
  },
  {
    name: 'audio',
    request: { type: 'audio', url: 'https://cdn.example.com/audio/voice-note.opus' },
    upstream: { audio: { link: 'https://cdn.example.com/audio/voice-note.opus' } },
  },
  {
    name: 'video with caption',
    request: { type: 'video', url: 'https://cdn.example.com/video/unboxing.3gp', caption: 'Unboxing' },
    upstream: { video: { link: 'https://cdn.example.com/video/unboxing.3gp', caption: 'Unboxing' } },
  },
  {
    name: 'location with name and address',
    request: { type: 'location', latitude: 52.520008, longitude: 13.404954, name: 'Pick-up point', address: 'Alexanderplatz 1, Berlin' },
    upstream: { location: { latitude: 52.520008, longitude: 13.404954, name: 'Pick-up point', address: 'Alexanderplatz 1, Berlin' } },
  },
  {
    name: 'location at the bounds (-90, 180), no name or address',
    request: { type: 'location', latitude: -90, longitude: 180 },
    upstream: { location: { latitude: -90, longitude: 180 } },
  },
  {
    name: 'interactive button (header, body, footer, 3 buttons)',
    request: {
      type: 'interactive',
      interactive: buttonMessage({ action: { buttons: [reply('yes', 'Yes'), reply('no', 'No'), reply('later', 'Ask me later')] } }),
    },
    upstream: { interactive: buttonMessage({ action: { buttons: [reply('yes', 'Yes'), reply('no', 'No'), reply('later', 'Ask me later')] } }) },
  },
  {
    name: 'interactive button at every length limit, without header and footer',
    request: {
      type: 'interactive',
      interactive: { type: 'button', body: { text: long(1024) }, action: { buttons: [reply(long(256, 'i'), long(20, 'T'))] } },
    },
    upstream: { interactive: { type: 'button', body: { text: long(1024) }, action: { buttons: [reply(long(256, 'i'), long(20, 'T'))] } } },
  },
  {
    name: 'interactive list (header, body, footer, two sections)',
    request: {
      type: 'interactive',
      interactive: listWith(
        [
          { title: 'Morning', rows: rows(3, 'am') },
          { title: 'Afternoon', rows: rows(2, 'pm') },
        ],
        { footer: { text: 'Demo Retail' } },
      ),
    },
    upstream: {
      interactive: listWith(
        [
          { title: 'Morning', rows: rows(3, 'am') },
          { title: 'Afternoon', rows: rows(2, 'pm') },
        ],
        { footer: { text: 'Demo Retail' } },
      ),
    },
  },
  {
    name: 'interactive list with 10 rows over 3 sections and every text at its limit',
    request: {
      type: 'interactive',
      interactive: {
        type: 'list',
        header: { type: 'text', text: long(60, 'h') },
        body: { text: long(1024, 'b') },
        footer: { text: long(60, 'f') },
        action: {
          button: long(20, 'B'),
          sections: [
            { title: long(24, 's'), rows: [{ id: 'r0', title: long(24, 't'), description: long(72, 'd') }, ...rows(3, 'a')] },
            { title: 'Second', rows: rows(3, 'b') },
            { title: 'Third', rows: rows(3, 'c') },
          ],
        },
      },
    },
    upstream: {
      interactive: {
        type: 'list',
        header: { type: 'text', text: long(60, 'h') },
        body: { text: long(1024, 'b') },
        footer: { text: long(60, 'f') },
        action: {
          button: long(20, 'B'),
          sections: [
            { title: long(24, 's'), rows: [{ id: 'r0', title: long(24, 't'), description: long(72, 'd') }, ...rows(3, 'a')] },
            { title: 'Second', rows: rows(3, 'b') },
            { title: 'Third', rows: rows(3, 'c') },
          ],
        },
      },
    },
  },
  {
    name: 'interactive list, minimal: one untitled section, a row without description, no header or footer',
    request: {
      type: 'interactive',
      interactive: { type: 'list', body: { text: 'Pick one' }, action: { button: 'Open', sections: [{ rows: [{ id: 'only', title: 'The only one' }] }] } },
    },
    upstream: {
      interactive: { type: 'list', body: { text: 'Pick one' }, action: { button: 'Open', sections: [{ rows: [{ id: 'only', title: 'The only one' }] }] } },
    },
  },
];

/** Rejections: [what, the type-specific part of the body (common fields added unless given), the exact message]. */
const REJECTED_TO = '447700900999';
const rejectionCases: Array<[string, Body, string]> = [
  // type
  ['type missing', {}, 'type must be one of text, image, document, audio, video, sticker, location, interactive'],
  ['unknown type', { type: 'contacts' }, 'type must be one of text, image, document, audio, video, sticker, location, interactive'],
  // common fields
  [
    'fromPhoneNumber with +',
    { fromPhoneNumber: `+${DEMO.sender1}`, type: 'text', text: 'Hi' },
    'fromPhoneNumber must contain digits only (no +, spaces or punctuation)',
  ],
  ['fromPhoneNumber missing', { fromPhoneNumber: undefined, type: 'text', text: 'Hi' }, 'fromPhoneNumber is required'],
  [
    'toPhoneNumber with spaces',
    { toPhoneNumber: '44 7700 900999', type: 'text', text: 'Hi' },
    'toPhoneNumber must contain digits only (no +, spaces or punctuation)',
  ],
  ['toPhoneNumber too long', { toPhoneNumber: '4477009009991234', type: 'text', text: 'Hi' }, 'toPhoneNumber must have at most 15 digits'],
  // Changed on purpose (issue 25): a recipient may be a business-scoped user id instead, and the answer says so.
  ['toPhoneNumber missing', { toPhoneNumber: undefined, type: 'text', text: 'Hi' }, 'toPhoneNumber is required (or toUserId)'],
  ['toUserId with toPhoneNumber', { toUserId: 'US.13491208655302741918', type: 'text', text: 'Hi' }, 'toUserId must not be given with toPhoneNumber'],
  [
    'toUserId not a business-scoped user id',
    { toPhoneNumber: undefined, toUserId: 'us.1', type: 'text', text: 'Hi' },
    'toUserId must be a business-scoped user id: a 2-letter ISO country code, a dot, an optional ENT. and 1 to 128 letters or digits (e.g. US.13491208655302741918)',
  ],
  // text
  ['text missing', { type: 'text' }, 'text is required'],
  ['text empty', { type: 'text', text: '' }, 'text must not be empty'],
  ['text only spaces', { type: 'text', text: '   ' }, 'text must not be empty'],
  ['text not a string', { type: 'text', text: 42 }, 'text must be string (received 42)'],
  ['text over 4096 characters', { type: 'text', text: long(4097) }, 'text must be at most 4096 characters'],
  // media URLs: scheme, then the extension of the path, per type
  ['image url ftp scheme', { type: 'image', url: 'ftp://cdn.example.com/a.jpg' }, 'url must be an http or https URL'],
  ['image url not absolute', { type: 'image', url: 'parcel.jpg' }, 'url must be an http or https URL'],
  ['image url missing', { type: 'image' }, 'url is required'],
  ['image .gif', { type: 'image', url: 'https://cdn.example.com/a.gif' }, 'url must end in one of .jpg, .jpeg, .png'],
  ['image .webp (a sticker format)', { type: 'image', url: 'https://cdn.example.com/a.webp' }, 'url must end in one of .jpg, .jpeg, .png'],
  ['image caption over 1024', { type: 'image', url: 'https://cdn.example.com/a.png', caption: long(1025) }, 'caption must be at most 1024 characters'],
  ['sticker .png', { type: 'sticker', url: 'https://cdn.example.com/a.png' }, 'url must end in one of .webp'],
  ['document .exe', { type: 'document', url: 'https://cdn.example.com/setup.exe' }, 'url must end in one of .pdf, .txt, .doc, .docx, .ppt, .pptx, .xls, .xlsx'],
  [
    'document extension only in the query',
    { type: 'document', url: 'https://cdn.example.com/get?file=a.pdf' },
    'url must end in one of .pdf, .txt, .doc, .docx, .ppt, .pptx, .xls, .xlsx',
  ],
  ['document ftp scheme', { type: 'document', url: 'ftp://files.example.com/a.pdf' }, 'url must be an http or https URL'],
  ['document name over 240', { type: 'document', url: 'https://cdn.example.com/a.pdf', name: long(241) }, 'name must be at most 240 characters'],
  ['audio .wav', { type: 'audio', url: 'https://cdn.example.com/a.wav' }, 'url must end in one of .aac, .amr, .mp3, .m4a, .mp4, .ogg, .opus'],
  ['audio file: scheme', { type: 'audio', url: 'file:///tmp/a.mp3' }, 'url must be an http or https URL'],
  ['video .mov', { type: 'video', url: 'https://cdn.example.com/a.mov' }, 'url must end in one of .mp4, .3gp'],
  ['video javascript: scheme', { type: 'video', url: 'javascript:alert(1)//a.mp4' }, 'url must be an http or https URL'],
  // location
  ['latitude quoted', { type: 'location', latitude: '52.5', longitude: 13.4 }, 'latitude must be a JSON number, not a string'],
  ['longitude quoted', { type: 'location', latitude: 52.5, longitude: '13.4' }, 'longitude must be a JSON number, not a string'],
  ['latitude above 90', { type: 'location', latitude: 90.5, longitude: 13.4 }, 'latitude must be from -90 to 90'],
  ['latitude below -90', { type: 'location', latitude: -91, longitude: 13.4 }, 'latitude must be from -90 to 90'],
  ['longitude below -180', { type: 'location', latitude: 52.5, longitude: -180.01 }, 'longitude must be from -180 to 180'],
  ['longitude above 180', { type: 'location', latitude: 52.5, longitude: 181 }, 'longitude must be from -180 to 180'],
  ['latitude missing', { type: 'location', longitude: 13.4 }, 'latitude is required'],
  // interactive: the object and its variant
  ['interactive missing', { type: 'interactive' }, 'interactive is required'],
  ['interactive of another variant', { type: 'interactive', interactive: { type: 'product' } }, "interactive.type must be 'button' or 'list'"],
  // reply buttons
  [
    '4 buttons',
    { type: 'interactive', interactive: buttonMessage({ action: { buttons: [reply('a', 'A'), reply('b', 'B'), reply('c', 'C'), reply('d', 'D')] } }) },
    'interactive.action.buttons must hold 1 to 3 buttons',
  ],
  ['0 buttons', { type: 'interactive', interactive: buttonMessage({ action: { buttons: [] } }) }, 'interactive.action.buttons must hold 1 to 3 buttons'],
  [
    'duplicate button titles',
    { type: 'interactive', interactive: buttonMessage({ action: { buttons: [reply('a', 'Yes'), reply('b', 'Yes')] } }) },
    'interactive.action.buttons must have unique titles',
  ],
  [
    'duplicate button ids',
    { type: 'interactive', interactive: buttonMessage({ action: { buttons: [reply('a', 'Yes'), reply('a', 'No')] } }) },
    'interactive.action.buttons must have unique ids',
  ],
  [
    'button title over 20',
    { type: 'interactive', interactive: buttonMessage({ action: { buttons: [reply('a', long(21))] } }) },
    'interactive.action.buttons[0].reply.title must be at most 20 characters',
  ],
  [
    'button of type url',
    { type: 'interactive', interactive: buttonMessage({ action: { buttons: [reply('a', 'A'), { type: 'url', reply: { id: 'b', title: 'B' } }] } }) },
    "interactive.action.buttons[1].type must be 'reply'",
  ],
  [
    'button header of type image',
    { type: 'interactive', interactive: buttonMessage({ header: { type: 'image', text: 'x' } }) },
    "interactive.header.type must be 'text'",
  ],
  [
    'button header over 60',
    { type: 'interactive', interactive: buttonMessage({ header: { type: 'text', text: long(61) } }) },
    'interactive.header.text must be at most 60 characters',
  ],
  [
    'button footer over 60',
    { type: 'interactive', interactive: buttonMessage({ footer: { text: long(61) } }) },
    'interactive.footer.text must be at most 60 characters',
  ],
  [
    'button body over 1024',
    { type: 'interactive', interactive: buttonMessage({ body: { text: long(1025) } }) },
    'interactive.body.text must be at most 1024 characters',
  ],
  ['button body missing', { type: 'interactive', interactive: buttonMessage({ body: undefined }) }, 'interactive.body is required'],
  ['button body text empty', { type: 'interactive', interactive: buttonMessage({ body: { text: '' } }) }, 'interactive.body.text must not be empty'],
  // lists
  [
    '11 rows over two sections',
    {
      type: 'interactive',
      interactive: listWith([
        { title: 'A', rows: rows(6, 'a') },
        { title: 'B', rows: rows(5, 'b') },
      ]),
    },
    'interactive.action.sections must hold 1 to 10 rows counted over all sections',
  ],
  [
    '11 rows in one section',
    { type: 'interactive', interactive: listWith([{ title: 'A', rows: rows(11, 'a') }]) },
    'interactive.action.sections must hold 1 to 10 rows counted over all sections',
  ],
  ['no section', { type: 'interactive', interactive: listWith([]) }, 'interactive.action.sections must hold at least 1 section'],
  [
    'a section without rows',
    { type: 'interactive', interactive: listWith([{ title: 'A', rows: [] }]) },
    'interactive.action.sections[0].rows must hold at least 1 row',
  ],
  [
    'duplicate row ids across sections',
    {
      type: 'interactive',
      interactive: listWith([
        { title: 'A', rows: rows(2, 'x') },
        { title: 'B', rows: rows(1, 'x') },
      ]),
    },
    'interactive.action.sections must have unique row ids',
  ],
  [
    'several sections, one untitled',
    { type: 'interactive', interactive: listWith([{ rows: rows(1, 'a') }, { title: 'B', rows: rows(1, 'b') }]) },
    'interactive.action.sections must each have a title when there are several',
  ],
  [
    'row title over 24',
    { type: 'interactive', interactive: listWith([{ title: 'A', rows: [{ id: 'a', title: long(25) }] }]) },
    'interactive.action.sections[0].rows[0].title must be at most 24 characters',
  ],
  [
    'row description over 72',
    { type: 'interactive', interactive: listWith([{ title: 'A', rows: [{ id: 'a', title: 'A', description: long(73) }] }]) },
    'interactive.action.sections[0].rows[0].description must be at most 72 characters',
  ],
  [
    'row id missing',
    { type: 'interactive', interactive: listWith([{ title: 'A', rows: [{ title: 'A' }] }]) },
    'interactive.action.sections[0].rows[0].id is required',
  ],
  [
    'section title over 24',
    { type: 'interactive', interactive: listWith([{ title: long(25), rows: rows(1, 'a') }]) },
    'interactive.action.sections[0].title must be at most 24 characters',
  ],
  [
    'list button label missing',
    { type: 'interactive', interactive: listMessage({ action: { sections: [{ title: 'A', rows: rows(1, 'a') }] } }) },
    'interactive.action.button is required',
  ],
  [
    'list button label over 20',
    { type: 'interactive', interactive: listMessage({ action: { button: long(21), sections: [{ title: 'A', rows: rows(1, 'a') }] } }) },
    'interactive.action.button must be at most 20 characters',
  ],
  [
    'list header over 60',
    { type: 'interactive', interactive: listMessage({ header: { type: 'text', text: long(61) } }) },
    'interactive.header.text must be at most 60 characters',
  ],
  [
    'list footer over 60',
    { type: 'interactive', interactive: listMessage({ footer: { text: long(61) } }) },
    'interactive.footer.text must be at most 60 characters',
  ],
  [
    'list body over 1024',
    { type: 'interactive', interactive: listMessage({ body: { text: long(1025) } }) },
    'interactive.body.text must be at most 1024 characters',
  ],
];

describe('POST /broadcast/public/send-freeform', () => {
  let runtime: TestRuntime;
  let organizationId: string;

  beforeAll(async () => {
    runtime = await startTestRuntime({ environment: { ...kitEnvironment } });
    organizationId = runtime.demo.organizationId;
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  const send = (apiKey: string, body: Body) => runtime.call('POST', `${BASE}/send-freeform`, { headers: keyHeader(apiKey), body });
  const freshKey = async (boundPhoneNumber?: string) => (await issueKey(organizationId, boundPhoneNumber)).secret;
  const acceptedTo = (to: string): AcceptedMessage[] => runtime.sandbox!.acceptedMessages().filter((message) => message.recipient === to);
  const broadcasts = () => getServices().broadcast.broadcasts;

  describe('each type is accepted and sent upstream in Meta’s shape', () => {
    it.each(acceptedCases.map((testCase) => [testCase.name, testCase] as const))('%s', async (_name, testCase) => {
      const to = recipient();
      const type = String(testCase.request.type);
      const response = await send(await freshKey(), { fromPhoneNumber: DEMO.sender1, toPhoneNumber: to, ...testCase.request });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: true, status_code: 200, message: `Free-form ${type} message queued for delivery`, data: {} });

      // The sandbox's inspection log: the exact request the worker sent for this recipient.
      const [message] = await eventually(
        () => Promise.resolve(acceptedTo(to)),
        (messages) => messages.length > 0,
        20_000,
      );
      expect(message!.phoneNumberId).toBe(DEMO.phoneNumberId1);
      expect(message!.type).toBe(type);
      expect(message!.body).toEqual({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to,
        type,
        ...testCase.upstream,
        biz_opaque_callback_data: expect.stringMatching(LEDGER_CALLBACK_DATA),
      });

      // The outcome, found the way a delivery event will be matched: by the upstream message id.
      const location = await eventually(
        () => broadcasts().findByMessageId(message!.messageId),
        (found) => found?.entry.status === 'SENT',
        10_000,
      );
      expect(location).toMatchObject({
        jobId: expect.stringMatching(/^msg_/),
        chunkIndex: 0,
        entry: { index: 0, to, status: 'SENT', messageId: message!.messageId },
      });
      const job = await broadcasts().getJob(location!.jobId);
      expect(job).toMatchObject({
        organizationId,
        exposed: false,
        fromPhoneNumber: DEMO.sender1,
        phoneNumberId: DEMO.phoneNumberId1,
        totalRecipients: 1,
        kind: 'freeform',
        messageType: type,
      });
      const [chunk] = await eventually(
        () => chunkProgressOf(broadcasts(), location!.jobId),
        (chunks) => chunks[0]?.done === true,
        10_000,
      );
      expect(chunk).toMatchObject({ recipientCount: 1, sent: 1, failed: 0, unknown: 0 });

      await runtime.workersIdle();
      expect(acceptedTo(to)).toHaveLength(1);
    });
  });

  it('finds no ledger entry for a message id nobody recorded', async () => {
    expect(await broadcasts().findByMessageId('wamid.not-ours')).toBeUndefined();
  });

  describe('every rule: 400 naming the field and the rule, nothing queued or sent', () => {
    it.each(rejectionCases)('%s', async (_name, fields, expectedMessage) => {
      const body: Body = { fromPhoneNumber: DEMO.sender1, toPhoneNumber: REJECTED_TO, ...fields };
      const jobsBefore = await jobCount(organizationId);
      const response = await send(await freshKey(), body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        status: false,
        status_code: 400,
        message: expectedMessage,
        data: { error: { code: 'VALIDATION_FAILED', message: expectedMessage } },
      });
      expect(await jobCount(organizationId)).toBe(jobsBefore);
      await runtime.workersIdle();
      expect(acceptedTo(REJECTED_TO)).toHaveLength(0);
    });
  });

  describe('the sender', () => {
    const text = (fromPhoneNumber: string, toPhoneNumber: string) => ({ fromPhoneNumber, toPhoneNumber, type: 'text', text: 'Hello' });

    it.each([
      ['a sender of another organization', () => runtime.demo.otherOrg.phoneNumber],
      ['a number that is nobody’s sender', () => '15559999999'],
    ])('answers 401 for %s, and sends nothing', async (_name, fromOf) => {
      const from = fromOf();
      const to = recipient();
      const jobsBefore = await jobCount(organizationId);
      const response = await send(await freshKey(), text(from, to));
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({
        status: false,
        status_code: 401,
        message: `Phone number ${from} is not a sender of this organization`,
        data: { error: { code: 'SENDER_NOT_OWNED' } },
      });
      expect(await jobCount(organizationId)).toBe(jobsBefore);
      await runtime.workersIdle();
      expect(acceptedTo(to)).toHaveLength(0);
    });

    it('holds a key bound to one number to that number: 401 for the organization’s other sender, 200 for its own', async () => {
      const bound = await freshKey(DEMO.sender2);
      const refusedTo = recipient();
      const refused = await send(bound, text(DEMO.sender1, refusedTo));
      expect(refused.status).toBe(401);
      expect(refused.body.data.error.code).toBe('SENDER_NOT_OWNED');

      const acceptedRecipient = recipient();
      const accepted = await send(bound, text(DEMO.sender2, acceptedRecipient));
      expect(accepted.status).toBe(200);
      const [message] = await eventually(
        () => Promise.resolve(acceptedTo(acceptedRecipient)),
        (messages) => messages.length > 0,
        20_000,
      );
      expect(message!.phoneNumberId).toBe(DEMO.phoneNumberId2);
      await runtime.workersIdle();
      expect(acceptedTo(refusedTo)).toHaveLength(0);
    });
  });

  it('allows 20 free-form messages a minute per key and fromPhoneNumber; the 21st is 429 with Retry-After and is not sent', async () => {
    // Sliding windows over calendar minutes: a burst inside one minute has a known Retry-After.
    await ensureMinuteHeadroom(15);
    const key = await freshKey();
    const recipients = Array.from({ length: 21 }, () => recipient());
    for (const to of recipients.slice(0, 20)) expect((await send(key, text(DEMO.sender1, to))).status).toBe(200);

    const sentAt = Date.now();
    const refused = await send(key, text(DEMO.sender1, recipients[20]!));
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expectFreshBucketRetryAfter(retryAfter, 20, sentAt);
    expect(refused.body).toMatchObject({
      status: false,
      status_code: 429,
      retryAfterSeconds: retryAfter,
      message: `Rate limit of 20 requests per minute exceeded; retry after ${retryAfter} seconds`,
      data: { error: { code: 'RATE_LIMITED', retryAfterSeconds: retryAfter } },
    });

    // The same key and the organization's other sender: a bucket of its own.
    const otherSenderTo = recipient();
    expect((await send(key, text(DEMO.sender2, otherSenderTo))).status).toBe(200);

    await eventually(
      () => Promise.resolve([...recipients.slice(0, 20), otherSenderTo].filter((to) => acceptedTo(to).length === 1).length),
      (sent) => sent === 21,
      25_000,
    );
    await runtime.workersIdle();
    expect(acceptedTo(recipients[20]!)).toHaveLength(0);
  }, 45_000);

  function text(fromPhoneNumber: string, toPhoneNumber: string): Body {
    return { fromPhoneNumber, toPhoneNumber, type: 'text', text: 'Your order has shipped' };
  }

  it('records a failed send as the recipient’s outcome: 131047 (outside the 24-hour window) ends FAILED with that reason', async () => {
    const to = recipient();
    runtime.sandbox!.configure({ recipientErrors: { [to]: { code: 131047 } } });
    try {
      const response = await send(await freshKey(), { ...text(DEMO.sender1, to), text: 'Are you still there?' });
      // Queued: the failure happens later, in the worker, and is recorded rather than answered.
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: true, status_code: 200, message: 'Free-form text message queued for delivery', data: {} });

      const jobId = await latestJobId(organizationId);
      expect(jobId).toMatch(/^msg_/);
      const [chunk] = await eventually(
        () => chunkProgressOf(broadcasts(), jobId),
        (chunks) => chunks[0]?.done === true,
        20_000,
      );
      expect(chunk).toMatchObject({ recipientCount: 1, sent: 0, failed: 1, unknown: 0, failuresByReason: { '131047': 1 } });
      const ledger = await ledgerOf(jobId, 0);
      expect(ledger.size).toBe(1);
      const entry = ledger.get(0)!;
      expect(entry).toMatchObject({ index: 0, to, status: 'FAILED', failureReasonCode: '131047', attempts: 1 });
      expect(entry.messageId).toBeUndefined();
      expect(acceptedTo(to)).toHaveLength(0);
    } finally {
      runtime.sandbox!.configure({ recipientErrors: { [to]: null } });
    }
  });
});
