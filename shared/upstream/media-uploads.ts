/**
 * Uploads through the wrapper (media, flow JSON) and the media download.
 *
 * Size limits. Meta accepts audio 16 MB, documents 100 MB, images 5 MB, video 16 MB, stickers
 * 100 KB (static) and 500 KB (animated). This API cannot carry all of that: API Gateway takes at
 * most 10 MB per request and a synchronous Lambda invocation at most 6 MB of event, in which the
 * binary body travels base64-encoded (4/3 larger). The honest limit is therefore 4 MB per file
 * (4 MB + 64 KB per request, for the multipart framing): files above min(Meta's limit, 4 MB) are
 * refused with 413 naming both limits. Larger media is sent by `link` in the message instead.
 * The same 4 MB bounds downloads (a Lambda response is capped at 6 MB, also base64).
 */
import type { UpstreamRouteSpec } from '../../runtime-contract/upstream-routes';
import { RequestValidationError } from '../http/errors';
import { callGraph, flagNeedsAuthorization, scopedByMeta } from './call-upstream';
import { MediaTooLargeError, UpstreamRejectedError, UpstreamTargetNotFoundError, UpstreamUnavailableError } from './errors';
import { graphErrorFrom, isInvalidTokenError } from '../sending/graph-error';
import { parseMultipart, type MultipartPart } from './multipart';
import { recordUploadedMedia } from './owned-ids';
import { checkOwnedIds } from './pass-through';
import { requireUpstreamId, resolveTarget, type ResolvedTarget } from './resolve-target';
import type { UpstreamWrapperDependencies } from './ports';

const KB = 1024;
const MB = 1024 * 1024;

/** What one file may weigh through this API (see above). */
export const MAX_FILE_BYTES = 4 * MB;
/** What one upload request may weigh: one file plus the multipart framing and small fields. */
export const MAX_UPLOAD_BODY_BYTES = MAX_FILE_BYTES + 64 * KB;

export type MediaKind = 'audio' | 'document' | 'image' | 'video' | 'sticker';

/** Meta's supported types, by kind, and Meta's own size limit of each kind. */
export const mediaTypes: Record<MediaKind, { mimeTypes: readonly string[]; metaLimitBytes: number; metaLimit: string }> = {
  audio: { mimeTypes: ['audio/aac', 'audio/amr', 'audio/mpeg', 'audio/mp4', 'audio/ogg'], metaLimitBytes: 16 * MB, metaLimit: '16 MB' },
  document: {
    mimeTypes: [
      'text/plain',
      'application/pdf',
      'application/msword',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.ms-excel',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.ms-powerpoint',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    ],
    metaLimitBytes: 100 * MB,
    metaLimit: '100 MB',
  },
  image: { mimeTypes: ['image/jpeg', 'image/png'], metaLimitBytes: 5 * MB, metaLimit: '5 MB' },
  video: { mimeTypes: ['video/mp4', 'video/3gpp', 'video/3gp'], metaLimitBytes: 16 * MB, metaLimit: '16 MB' },
  sticker: { mimeTypes: ['image/webp'], metaLimitBytes: 100 * KB, metaLimit: '100 KB static, 500 KB animated' },
};

const ANIMATED_STICKER_LIMIT_BYTES = 500 * KB;
const supportedTypes = Object.values(mediaTypes).flatMap((kind) => kind.mimeTypes);

export function mediaKindOf(mimeType: string): MediaKind | undefined {
  return (Object.keys(mediaTypes) as MediaKind[]).find((kind) => mediaTypes[kind].mimeTypes.includes(mimeType));
}

/** A WebP with the VP8X animation flag (RIFF....WEBPVP8X, flags byte 20, bit 0x02). */
export function isAnimatedWebp(data: Buffer): boolean {
  return data.length > 20 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 16) === 'WEBPVP8X' && (data[20]! & 0x02) !== 0;
}

const formatBytes = (bytes: number): string => (bytes >= MB ? `${+(bytes / MB).toFixed(2)} MB` : `${+(bytes / KB).toFixed(1)} KB`);

/** 413 unless a file of this type and size may be uploaded; names the limit that applies and why. */
export function checkMediaSize(mimeType: string, data: Buffer): void {
  const kind = mediaKindOf(mimeType)!;
  if (kind === 'sticker') {
    const animated = isAnimatedWebp(data);
    const limit = animated ? ANIMATED_STICKER_LIMIT_BYTES : mediaTypes.sticker.metaLimitBytes;
    if (data.length > limit) {
      throw new MediaTooLargeError(
        `file is ${formatBytes(data.length)}; ${animated ? 'animated' : 'static'} stickers are limited to ${formatBytes(limit)} by WhatsApp`,
        limit,
      );
    }
    return;
  }
  const meta = mediaTypes[kind];
  const limit = Math.min(meta.metaLimitBytes, MAX_FILE_BYTES);
  if (data.length <= limit) return;
  throw new MediaTooLargeError(
    limit < meta.metaLimitBytes
      ? `file is ${formatBytes(data.length)}; ${kind} uploads through this API are limited to ${formatBytes(limit)} (WhatsApp allows ${meta.metaLimit}; API Gateway and Lambda cap request bodies) — send larger media by link`
      : `file is ${formatBytes(data.length)}; ${kind} files are limited to ${meta.metaLimit} by WhatsApp`,
    limit,
  );
}

function requireBodySize(rawBody: Buffer | undefined): Buffer {
  const body = rawBody ?? Buffer.alloc(0);
  if (body.length > MAX_UPLOAD_BODY_BYTES) {
    throw new MediaTooLargeError(
      `request body is ${formatBytes(body.length)}; uploads through this API are limited to ${formatBytes(MAX_FILE_BYTES)} per file (${formatBytes(MAX_UPLOAD_BODY_BYTES)} per request)`,
      MAX_UPLOAD_BODY_BYTES,
    );
  }
  return body;
}

function onePart(parts: MultipartPart[], name: string, required: boolean): MultipartPart | undefined {
  const found = parts.filter((part) => part.name === name);
  if (found.length > 1) throw new RequestValidationError(`multipart field ${name} is given more than once`);
  if (required && found.length === 0) throw new RequestValidationError(`multipart field ${name} is required`);
  return found[0];
}

const mimeOf = (value: string | undefined): string | undefined => value?.split(';', 1)[0]!.trim().toLowerCase() || undefined;

export interface UploadInput {
  organizationId: string;
  pathParameters: Readonly<Record<string, string>>;
  contentType: string | undefined;
  rawBody: Buffer | undefined;
}

/** POST /{phone-number-id}/media as multipart: messaging_product, type, file. Answers Meta's `{ id }`. */
export async function uploadMedia(deps: UpstreamWrapperDependencies, input: UploadInput): Promise<{ status: number; body: unknown }> {
  const target = await resolveTarget(deps, 'phone-number', input.organizationId, input.pathParameters);
  const parts = parseMultipart(requireBodySize(input.rawBody), input.contentType);
  const file = onePart(parts, 'file', true)!;
  const typeField = onePart(parts, 'type', false)?.data.toString('utf8').trim().toLowerCase();
  const fileType = mimeOf(file.contentType);
  const type = typeField || (fileType !== 'application/octet-stream' ? fileType : undefined);
  if (!type) throw new RequestValidationError('multipart field type (the MIME type) is required when the file part has no Content-Type');
  if (!mediaKindOf(type)) throw new RequestValidationError(`type ${type} is not supported by WhatsApp; supported: ${supportedTypes.join(', ')}`);
  if (file.data.length === 0) throw new RequestValidationError('multipart field file is empty');
  checkMediaSize(type, file.data);

  const phoneNumberId = target.phoneNumber!.phoneNumberId;
  const response = await callGraph(
    deps,
    { account: target.account, operation: 'uploadMedia', verifiedNode: true },
    {
      method: 'POST',
      path: `/${encodeURIComponent(phoneNumberId)}/media`,
      multipart: {
        fields: [
          ['messaging_product', 'whatsapp'],
          ['type', type],
        ],
        files: [{ field: 'file', filename: file.filename || `upload.${type.split('/')[1] ?? 'bin'}`, contentType: type, data: file.data }],
      },
      accessToken: target.accessToken,
    },
  );
  // Message bodies may name this id from now on (docs/UPSTREAM-WRAPPER.md, "Ids inside message bodies").
  await recordUploadedMedia(deps, target, (response.body as { id?: unknown } | undefined)?.id, 'uploadMedia');
  return { status: response.status, body: response.body };
}

/** POST /{flow-id}/assets as multipart: file (the flow JSON), name (flow.json), asset_type (FLOW_JSON). */
export async function uploadFlowJson(
  deps: UpstreamWrapperDependencies,
  route: UpstreamRouteSpec,
  input: UploadInput,
): Promise<{ status: number; body: unknown }> {
  const flowId = requireUpstreamId(input.pathParameters.flowId, 'flow');
  const target = await resolveTarget(deps, 'waba', input.organizationId, input.pathParameters);
  const parts = parseMultipart(requireBodySize(input.rawBody), input.contentType);
  const file = onePart(parts, 'file', true)!;
  const name = onePart(parts, 'name', false)?.data.toString('utf8').trim() || 'flow.json';
  const assetType = onePart(parts, 'asset_type', false)?.data.toString('utf8').trim() || 'FLOW_JSON';
  if (assetType !== 'FLOW_JSON') throw new RequestValidationError('multipart field asset_type must be FLOW_JSON');
  if (!name.endsWith('.json')) throw new RequestValidationError('multipart field name must end with .json (flow.json)');
  if (file.data.length > MAX_FILE_BYTES)
    throw new MediaTooLargeError(
      `flow JSON is ${formatBytes(file.data.length)}; uploads through this API are limited to ${formatBytes(MAX_FILE_BYTES)} (WhatsApp allows 10 MB)`,
      MAX_FILE_BYTES,
    );
  try {
    JSON.parse(file.data.toString('utf8'));
  } catch {
    throw new RequestValidationError('multipart field file must be valid JSON (the flow JSON)');
  }
  await checkOwnedIds(deps, route, target, { organizationId: input.organizationId, pathParameters: input.pathParameters, query: {}, body: undefined });

  const response = await callGraph(
    deps,
    { account: target.account, operation: 'uploadFlowJson', verifiedNode: true },
    {
      method: 'POST',
      path: `/${encodeURIComponent(flowId)}/assets`,
      multipart: {
        fields: [
          ['name', name],
          ['asset_type', assetType],
        ],
        files: [{ field: 'file', filename: name, contentType: 'application/json', data: file.data }],
      },
      accessToken: target.accessToken,
    },
  );
  return { status: response.status, body: response.body };
}

/** Hosts Meta serves media from; the sandbox's own origin is allowed too (the configured Graph base URL). */
const META_MEDIA_HOSTS = /(^|\.)(fbsbx\.com|facebook\.com|fbcdn\.net|whatsapp\.net)$/i;

export function isAllowedMediaUrl(url: string, graphBaseUrl: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.origin === new URL(graphBaseUrl).origin) return true;
  return parsed.protocol === 'https:' && META_MEDIA_HOSTS.test(parsed.hostname);
}

/**
 * The media file itself: the metadata (scoped by phone_number_id), then its URL fetched with the
 * account's token, which callers do not have. The token is only ever sent to Meta's hosts.
 */
export async function downloadMedia(
  deps: UpstreamWrapperDependencies,
  input: { organizationId: string; pathParameters: Readonly<Record<string, string>> },
): Promise<{ contentType: string; data: Buffer; sha256?: string }> {
  const target: ResolvedTarget = await resolveTarget(deps, 'phone-number', input.organizationId, input.pathParameters);
  const mediaId = requireUpstreamId(input.pathParameters.mediaId, 'media');
  const phoneNumberId = target.phoneNumber!.phoneNumberId;
  const context = { account: target.account, operation: 'downloadMedia', verifiedNode: false };
  const metadata = await scopedByMeta(deps, target, 'media', mediaId, () =>
    callGraph(deps, context, {
      method: 'GET',
      path: `/${encodeURIComponent(mediaId)}`,
      query: { phone_number_id: phoneNumberId },
      accessToken: target.accessToken,
    }),
  );
  const media = (metadata.body ?? {}) as { url?: unknown; mime_type?: unknown; file_size?: unknown; sha256?: unknown };
  // An id Meta resolves to something that is not a media file (a WABA or a phone number id, say) has no
  // URL: to the caller it is no media of this number, answered as a foreign media id is.
  if (media.url === undefined) throw new UpstreamTargetNotFoundError('media', mediaId);
  if (typeof media.url !== 'string' || !isAllowedMediaUrl(media.url, deps.settings.graphBaseUrl)) {
    throw new UpstreamUnavailableError('media URL malformed or on an unexpected host');
  }
  // Meta sends file_size as a string of digits.
  const fileSize = Number(media.file_size);
  if (Number.isFinite(fileSize) && fileSize > MAX_FILE_BYTES) {
    throw new MediaTooLargeError(
      `media is ${formatBytes(fileSize)}; downloads through this API are limited to ${formatBytes(MAX_FILE_BYTES)} (Lambda caps responses)`,
      MAX_FILE_BYTES,
    );
  }
  const file = await deps.graph.download(media.url, target.accessToken, { maxBytes: MAX_FILE_BYTES });
  if (file.status >= 500) throw new UpstreamUnavailableError(`HTTP ${file.status}`);
  if (file.status >= 400) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(file.body.toString('utf8'));
    } catch {
      parsed = undefined;
    }
    const error = graphErrorFrom(parsed, file.status);
    if (isInvalidTokenError(error)) await flagNeedsAuthorization(deps, target.account);
    throw new UpstreamRejectedError(file.status, error);
  }
  return {
    contentType: typeof media.mime_type === 'string' ? media.mime_type : (file.headers['content-type'] ?? 'application/octet-stream'),
    data: file.body,
    sha256: typeof media.sha256 === 'string' ? media.sha256 : undefined,
  };
}
