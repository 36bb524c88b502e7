/**
 * Message QR codes: `GET`/`POST /{phone-number-id}/message_qrdls` (list; create, or update when
 * the body names a `code`) and `GET`/`DELETE /{phone-number-id}/message_qrdls/{code}`.
 *
 * Codes are 14 characters of [A-Z2-7] as in the YAML; deep links are wa.me/message/{code}; the
 * image behind `qr_image_url` is a real QR code of the deep link (qr-image.ts, the `qrcode`
 * package), served by the sandbox as SVG or PNG at a signed URL.
 */
import { randomBytes } from 'node:crypto';
import type { PhoneState, QrCode } from '../account-state';
import { invalidParameter, newFbtraceId, nonexistingField, unsupportedRequest } from '../graph-errors';
import { paginate, parseFieldSpecs } from '../graph-listing';
import { renderQrImage, type QrImageFormat } from '../qr-image';
import type { StoredAccount } from '../sandbox-state';
import { ok, route, SUCCESS, type GraphDependencies, type GraphOutcome, type GraphRequest, type GraphRoute, type RouteContext } from './route-kit';

const CODE_PATTERN = /^[A-Z2-7]{14}$/;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const MAX_PREFILLED = 140;
export const QR_IMAGE_PATH = '/whatsapp_business/qr_images/';
const SIGNING_KIND = 'qr-image';
const IMAGE_URL_LIFETIME_MS = 24 * 60 * 60_000;
const FIELDS = ['code', 'prefilled_message', 'deep_link_url', 'qr_image_url', 'creation_time'];
const DEFAULT_FIELDS = ['code', 'prefilled_message', 'deep_link_url'];
type ImageFormat = QrImageFormat;

type PhoneContext = RouteContext<{ kind: 'phone'; owner: StoredAccount; phone: PhoneState }>;

function newCode(phone: PhoneState): string {
  for (;;) {
    const code = [...randomBytes(14)].map((byte) => BASE32[byte % 32]).join('');
    if (!phone.qrCodes.has(code)) return code;
  }
}

function deepLink(code: string): string {
  return `https://wa.me/message/${code}`;
}

function imageUrl(context: PhoneContext, qr: QrCode, format: ImageFormat): string {
  const expiresAt = context.now() + IMAGE_URL_LIFETIME_MS;
  const id = `${context.node.phone.number.id}/${qr.code}/${format}`;
  const url = new URL(QR_IMAGE_PATH, context.origin);
  url.searchParams.set('qid', id);
  url.searchParams.set('ext', String(expiresAt));
  url.searchParams.set('hash', context.deps.signer.sign(SIGNING_KIND, id, expiresAt));
  return url.toString();
}

/** `fields`, where `qr_image_url.format(SVG)` picks the image format (PNG by default). */
function selection(context: PhoneContext): { fields: string[]; format: ImageFormat } {
  const raw = context.query.get('fields');
  if (raw === null || raw.trim() === '') return { fields: DEFAULT_FIELDS, format: 'PNG' };
  let format: ImageFormat = 'PNG';
  const fields = parseFieldSpecs(raw).map((spec) => {
    if (!FIELDS.includes(spec.name)) throw nonexistingField(spec.name, 'MessageQrdl');
    const requested = spec.modifiers.format?.trim().toUpperCase();
    if (spec.name === 'qr_image_url' && requested !== undefined) {
      if (requested !== 'SVG' && requested !== 'PNG') throw invalidParameter(`Param format must be one of {SVG, PNG} - got ${JSON.stringify(requested)}.`);
      format = requested;
    }
    return spec.name;
  });
  // The code identifies an item (and pages); like `id` elsewhere it is always returned.
  return { fields: fields.includes('code') ? fields : ['code', ...fields], format };
}

function render(context: PhoneContext, qr: QrCode, fields: readonly string[], format: ImageFormat): Record<string, unknown> {
  const all: Record<string, unknown> = {
    code: qr.code,
    prefilled_message: qr.prefilledMessage,
    deep_link_url: deepLink(qr.code),
    qr_image_url: imageUrl(context, qr, format),
    creation_time: qr.createdAt,
  };
  return Object.fromEntries(fields.filter((field) => field in all).map((field) => [field, all[field]]));
}

function findCode(context: PhoneContext, code: string): QrCode {
  if (!CODE_PATTERN.test(code)) throw invalidParameter(`Param code must be 14 characters of A-Z and 2-7 - got ${JSON.stringify(code)}.`);
  const qr = context.node.phone.qrCodes.get(code);
  if (qr === undefined) throw unsupportedRequest(context.request.method, code);
  return qr;
}

function createOrUpdate(context: PhoneContext) {
  const params = context.params();
  const prefilled = params.string('prefilled_message', { maxLength: MAX_PREFILLED });
  const code = params.optionalString('code');
  if (code !== undefined) {
    const qr = findCode(context, code);
    qr.prefilledMessage = prefilled;
    return ok(render(context, qr, DEFAULT_FIELDS, 'PNG'));
  }
  const format = params.optionalEnum('generate_qr_image', ['PNG', 'SVG'] as const, { caseInsensitive: true });
  const qr: QrCode = { code: newCode(context.node.phone), prefilledMessage: prefilled, createdAt: Math.floor(context.now() / 1000) };
  context.node.phone.qrCodes.set(qr.code, qr);
  return ok(render(context, qr, format === undefined ? DEFAULT_FIELDS : [...DEFAULT_FIELDS, 'qr_image_url'], format ?? 'PNG'));
}

async function imageOutcome(link: string, format: ImageFormat): Promise<GraphOutcome> {
  const body = await renderQrImage(link, format);
  return { kind: 'bytes', status: 200, body, headers: { 'content-type': format === 'SVG' ? 'image/svg+xml' : 'image/png' } };
}

/** The image behind `qr_image_url`, encoding the code's current deep link. */
export function downloadQrImage(request: GraphRequest, _token: string | undefined, deps: GraphDependencies): GraphOutcome | Promise<GraphOutcome> {
  const query = request.url.searchParams;
  const id = query.get('qid') ?? '';
  const [phoneId = '', code = '', format = ''] = id.split('/');
  const node = deps.state.node(phoneId);
  const qr = node?.kind === 'phone' ? node.phone.qrCodes.get(code) : undefined;
  if (!deps.signer.verify(SIGNING_KIND, id, Number(query.get('ext')), query.get('hash') ?? '', deps.state.now()) || qr === undefined) {
    return {
      kind: 'respond',
      status: 404,
      body: { error: { message: 'The QR code image URL has expired or is not valid.', type: 'OAuthException', code: 100, fbtrace_id: newFbtraceId() } },
    };
  }
  return imageOutcome(deepLink(qr.code), format === 'SVG' ? 'SVG' : 'PNG');
}

export const qrCodeRoutes: GraphRoute[] = [
  route('phone', 'GET', 'message_qrdls', (context) => {
    const { fields, format } = selection(context);
    const code = context.query.get('code');
    const codes = [...context.node.phone.qrCodes.values()].filter((qr) => code === null || code === '' || qr.code === code);
    const items = codes.map((qr) => render(context, qr, fields, format));
    return ok(paginate(items, context.query, context.request.url, { keyOf: (item) => String(item.code ?? ''), maxLimit: 25 }));
  }),
  route('phone', 'POST', 'message_qrdls', createOrUpdate),
  route(
    'phone',
    'GET',
    'message_qrdls',
    (context) => {
      const qr = findCode(context, context.subId ?? '');
      const { fields, format } = selection(context);
      const item = render(context, qr, fields, format);
      // The YAML's schema is the bare object, its examples (and production) wrap it in `data`;
      // both are sent so a client written against either works.
      return ok({ data: [item], ...item });
    },
    { withSubId: true },
  ),
  route(
    'phone',
    'DELETE',
    'message_qrdls',
    (context) => {
      const qr = findCode(context, context.subId ?? '');
      context.node.phone.qrCodes.delete(qr.code);
      return SUCCESS;
    },
    { withSubId: true },
  ),
];
