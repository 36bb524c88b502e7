/**
 * The suffix of a tracked link (docs/OUTCOMES.md "Tracked links"): `{clickBaseUrl}/r/{token}`.
 *
 * A token names one button of one recipient of one job: (jobId, chunk, recipient index, button
 * index) and where the destination is kept (the job's content, or the recipient's own values). It
 * is made at send time from those alone, so the same recipient and button always get the same token
 * (a retried send, a redelivered chunk) and the send path writes nothing. It carries no phone
 * number, name or destination: only ids the platform made, and an HMAC-SHA-256 tag of 128 bits under
 * the platform's link key (click-link-key.ts), so a token cannot be made or altered without the key.
 *
 * Bytes, then base64url without padding: version (1) · flags (1: bit 0 the recipient's own
 * destination) · jobId length (1) · jobId (UTF-8) · chunk index, recipient index (unsigned varints)
 * · button index (1) · tag (16). A job id of 26 characters makes a token of about 64 characters.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Where the redirect reads the destination: the job's shared content, or the recipient's kept values. */
export type DestinationScope = 'job' | 'recipient';

/** What a token names. */
export interface ClickReference {
  jobId: string;
  chunkIndex: number;
  /** The recipient's index in the job (the ledger's key). */
  index: number;
  /** The URL button's position in the template (0..9). */
  buttonIndex: number;
  scope: DestinationScope;
}

const VERSION = 1;
const TAG_BYTES = 16;
const MAX_JOB_ID_BYTES = 64;
const MAX_TOKEN_LENGTH = 200;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]+$/;

function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return bytes;
}

function readVarint(bytes: Buffer, at: number): { value: number; next: number } | undefined {
  let value = 0;
  let scale = 1;
  for (let position = at; position < bytes.length && position < at + 5; position += 1) {
    const byte = bytes[position]!;
    value += (byte & 0x7f) * scale;
    if ((byte & 0x80) === 0) return { value, next: position + 1 };
    scale *= 0x80;
  }
  return undefined;
}

const tagOf = (key: Buffer, body: Buffer): Buffer => createHmac('sha256', key).update(body).digest().subarray(0, TAG_BYTES);

/**
 * The token of `reference` under `key` (32 bytes): the same inputs always give the same token.
 *
 * @example
 * clickToken(key, { jobId: 'pub_x', chunkIndex: 0, index: 7, buttonIndex: 0, scope: 'job' }); // 'AQAFcHViX3gABwA…' (about 45 characters)
 */
export function clickToken(key: Buffer, reference: ClickReference): string {
  const jobId = Buffer.from(reference.jobId, 'utf8');
  if (jobId.length === 0 || jobId.length > MAX_JOB_ID_BYTES) throw new TypeError(`A click token's job id must be 1..${MAX_JOB_ID_BYTES} bytes`);
  const body = Buffer.from([
    VERSION,
    reference.scope === 'recipient' ? 1 : 0,
    jobId.length,
    ...jobId,
    ...varint(reference.chunkIndex),
    ...varint(reference.index),
    reference.buttonIndex,
  ]);
  return Buffer.concat([body, tagOf(key, body)]).toString('base64url');
}

function decodeBody(body: Buffer): ClickReference | undefined {
  if (body[0] !== VERSION || body.length < 4) return undefined;
  const flags = body[1]!;
  if (flags > 1) return undefined;
  const jobIdLength = body[2]!;
  const jobIdEnd = 3 + jobIdLength;
  if (jobIdLength === 0 || jobIdEnd > body.length) return undefined;
  const chunk = readVarint(body, jobIdEnd);
  const index = chunk && readVarint(body, chunk.next);
  if (!chunk || !index || index.next !== body.length - 1) return undefined;
  const jobId = body.subarray(3, jobIdEnd).toString('utf8');
  return { jobId, chunkIndex: chunk.value, index: index.value, buttonIndex: body[body.length - 1]!, scope: flags === 1 ? 'recipient' : 'job' };
}

/**
 * What `token` names when its tag is right under `key`; undefined for anything else (malformed,
 * altered, made with another key). Compares the tag in constant time.
 *
 * @example
 * readClickToken(key, clickToken(key, reference)); // reference
 * readClickToken(key, 'not-a-token'); // undefined
 */
export function readClickToken(key: Buffer, token: string): ClickReference | undefined {
  if (token.length === 0 || token.length > MAX_TOKEN_LENGTH || !TOKEN_SHAPE.test(token)) return undefined;
  const bytes = Buffer.from(token, 'base64url');
  // base64url decoding ignores stray bits: only the canonical spelling of the bytes is the token.
  if (bytes.length <= TAG_BYTES + 4 || bytes.toString('base64url') !== token) return undefined;
  const body = bytes.subarray(0, bytes.length - TAG_BYTES);
  const tag = bytes.subarray(bytes.length - TAG_BYTES);
  if (!timingSafeEqual(tag, tagOf(key, body))) return undefined;
  return decodeBody(body);
}
