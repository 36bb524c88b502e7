/**
 * Media: `POST /{phone-number-id}/media` (multipart upload), `GET /{media-id}` (a short-lived
 * download URL), `DELETE /{media-id}`, and the download itself at the URL handed out.
 *
 * Meta's rules: the file part's MIME type must be one Meta supports, within that kind's size
 * limit; `phone_number_id`, when given, must be the number the media was uploaded on; media
 * lives 30 days; a download URL lives 5 minutes and needs the owner's Bearer token.
 */
import { createHash } from 'node:crypto';
import type { PhoneState, StoredMedia } from '../account-state';
import { invalidAccessToken, invalidParameter, newFbtraceId, requiredParameter, sessionExpired, unsupportedRequest } from '../graph-errors';
import type { StoredAccount } from '../sandbox-state';
import { ok, route, SUCCESS, type GraphDependencies, type GraphOutcome, type GraphRequest, type GraphRoute, type RouteContext } from './route-kit';

const MB = 1024 * 1024;
const DAY_MS = 86_400_000;
/** Meta keeps uploaded media for 30 days. */
const MEDIA_LIFETIME_MS = 30 * DAY_MS;
/** Media URLs from `GET /{media-id}` expire after 5 minutes. */
const URL_LIFETIME_MS = 5 * 60_000;
export const MEDIA_DOWNLOAD_PATH = '/whatsapp_business/attachments/';
const SIGNING_KIND = 'media';

type MediaKind = 'audio' | 'document' | 'image' | 'sticker' | 'video';
const LIMITS: Record<MediaKind, number> = { audio: 16 * MB, document: 100 * MB, image: 5 * MB, sticker: 500 * 1024, video: 16 * MB };
/** The largest upload body the HTTP layer must accept for this route (the file plus form overhead). */
export const MEDIA_UPLOAD_MAX_BYTES = LIMITS.document + MB;

/** In the order of Meta's own "Param file must be a file with one of the following types" error. */
const SUPPORTED_TYPES: ReadonlyArray<[string, MediaKind]> = [
  ['audio/aac', 'audio'],
  ['audio/mp4', 'audio'],
  ['audio/mpeg', 'audio'],
  ['audio/amr', 'audio'],
  ['audio/ogg', 'audio'],
  ['audio/opus', 'audio'],
  ['application/vnd.ms-powerpoint', 'document'],
  ['application/msword', 'document'],
  ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'document'],
  ['application/vnd.openxmlformats-officedocument.presentationml.presentation', 'document'],
  ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'document'],
  ['application/pdf', 'document'],
  ['text/plain', 'document'],
  ['application/vnd.ms-excel', 'document'],
  ['image/jpeg', 'image'],
  ['image/png', 'image'],
  ['image/webp', 'sticker'],
  ['video/mp4', 'video'],
  ['video/3gpp', 'video'],
];
const KIND_BY_TYPE = new Map(SUPPORTED_TYPES);

type PhoneContext = RouteContext<{ kind: 'phone'; owner: StoredAccount; phone: PhoneState }>;
type MediaContext = RouteContext<{ kind: 'media'; owner: StoredAccount; media: StoredMedia }>;

function baseType(contentType: string | undefined): string | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type === '' ? undefined : type;
}

function upload(context: PhoneContext) {
  const params = context.params();
  params.enumValue('messaging_product', ['whatsapp'] as const);
  const file = params.file('file');
  if (file === undefined) {
    if (params.has('file')) throw invalidParameter('Param file must be a file uploaded as multipart/form-data.');
    throw requiredParameter('file');
  }
  // The file part's own type decides; the `type` field stands in when the client sent none.
  const partType = baseType(file.contentType);
  const declared = baseType(params.optionalString('type'));
  const mimeType = partType === undefined || partType === 'application/octet-stream' ? (declared ?? partType ?? 'application/octet-stream') : partType;
  const kind = KIND_BY_TYPE.get(mimeType);
  if (kind === undefined) {
    throw invalidParameter(
      `Param file must be a file with one of the following types: ${SUPPORTED_TYPES.map(([type]) => type).join(', ')}. Received file of type '${mimeType}'.`,
    );
  }
  if (file.data.length === 0) throw invalidParameter('Param file must not be empty.');
  if (file.data.length > LIMITS[kind]) {
    throw invalidParameter(`Param file is too large: ${kind} files may be at most ${LIMITS[kind]} bytes (${mimeType}), got ${file.data.length}.`);
  }

  const { state } = context.deps;
  const media: StoredMedia = {
    id: state.allocateId(),
    phoneNumberId: context.node.phone.number.id,
    mimeType,
    data: Buffer.from(file.data),
    sha256: createHash('sha256').update(file.data).digest('hex'),
    ...(file.filename === undefined || file.filename === '' ? {} : { fileName: file.filename }),
    uploadedAt: context.now(),
  };
  state.addMedia(context.node.owner, media);
  return ok({ id: media.id });
}

/** Expired media is gone, so it answers like any id that does not exist. */
function liveMedia(context: MediaContext): StoredMedia {
  const { media, owner } = context.node;
  if (context.now() - media.uploadedAt >= MEDIA_LIFETIME_MS) {
    context.deps.state.removeMedia(owner, media);
    throw unsupportedRequest(context.request.method, media.id);
  }
  // Meta processes the call only for the number the media was uploaded on; for any other the
  // media is "not there" in that context, which Graph answers like an unknown object.
  const phoneNumberId = context.query.get('phone_number_id');
  if (phoneNumberId !== null && phoneNumberId !== '' && phoneNumberId !== media.phoneNumberId) {
    throw unsupportedRequest(context.request.method, media.id);
  }
  return media;
}

function mediaUrl(context: MediaContext, media: StoredMedia): string {
  const expiresAt = context.now() + URL_LIFETIME_MS;
  const url = new URL(MEDIA_DOWNLOAD_PATH, context.origin);
  url.searchParams.set('mid', media.id);
  url.searchParams.set('ext', String(expiresAt));
  url.searchParams.set('hash', context.deps.signer.sign(SIGNING_KIND, media.id, expiresAt));
  return url.toString();
}

function notFound(message: string): GraphOutcome {
  return { kind: 'respond', status: 404, body: { error: { message, type: 'OAuthException', code: 100, fbtrace_id: newFbtraceId() } } };
}

/**
 * `GET {media url}`: the bytes, for the owning account's token only. An expired, tampered or
 * deleted URL is a 404, which is what a client retrieving an old URL meets at Meta too.
 */
export function downloadMedia(request: GraphRequest, token: string | undefined, deps: GraphDependencies): GraphOutcome {
  const { state, signer } = deps;
  if (token === undefined || !state.isKnownToken(token)) throw invalidAccessToken();
  if (state.isExpiredToken(token)) throw sessionExpired();
  const query = request.url.searchParams;
  const id = query.get('mid') ?? '';
  const expiresAt = Number(query.get('ext'));
  if (!signer.verify(SIGNING_KIND, id, expiresAt, query.get('hash') ?? '', state.now())) {
    return notFound('The media URL has expired or is not valid. Retrieve a new URL with GET /{media-id}.');
  }
  const node = state.node(id);
  if (node?.kind !== 'media') return notFound('The media no longer exists.');
  if (node.owner.account.accessToken !== token) throw invalidAccessToken();
  const { media } = node;
  return {
    kind: 'bytes',
    status: 200,
    body: media.data,
    headers: {
      'content-type': media.mimeType,
      ...(media.fileName === undefined ? {} : { 'content-disposition': `attachment; filename="${media.fileName.replace(/["\\\r\n]/g, '_')}"` }),
    },
  };
}

export const mediaRoutes: GraphRoute[] = [
  route('phone', 'POST', 'media', upload),
  route('media', 'GET', null, (context) => {
    const media = liveMedia(context);
    return ok({
      messaging_product: 'whatsapp',
      url: mediaUrl(context, media),
      mime_type: media.mimeType,
      sha256: media.sha256,
      // A string, as Meta's YAML and examples give it.
      file_size: String(media.data.length),
      id: media.id,
    });
  }),
  route('media', 'DELETE', null, (context) => {
    const media = liveMedia(context);
    context.deps.state.removeMedia(context.node.owner, media);
    return SUCCESS;
  }),
];
