/**
 * A small multipart/form-data reader for bodies already in memory.
 *
 * Kept instead of busboy (tried for issue 22; docs/UPSTREAM-WRAPPER.md "Uploads" has the details):
 * busboy reports a part without Content-Type as text/plain (RFC 7578's default), so the upload rule
 * "type is required when the file part has no Content-Type" could no longer be told apart from a
 * real text/plain file; it skips a part without Content-Disposition silently where this answers
 * 400; and it hands parts without a filename over as decoded text, not bytes. On Lambda the whole
 * body is in the event anyway (base64, at most 6 MB), so its streaming buys nothing here. This
 * reader scans the buffer with Buffer.indexOf (linear, no regular expressions over binary data),
 * limits the number of parts and header sizes, and never copies a part's bytes (subarray views).
 */
import { RequestValidationError } from '../http/errors';

export interface MultipartPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

const MAX_PARTS = 16;
const MAX_HEADER_BYTES = 8 * 1024;
const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

/** The boundary of a `multipart/form-data; boundary=...` Content-Type; 400 when it is anything else. */
export function multipartBoundary(contentType: string | undefined): string {
  const type = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (type !== 'multipart/form-data') {
    throw new RequestValidationError(`Content-Type must be multipart/form-data (received ${contentType ? type : 'none'})`);
  }
  const match = /;\s*boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType ?? '');
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary || boundary.length > 200) throw new RequestValidationError('Content-Type multipart/form-data needs a boundary');
  return boundary;
}

function headerParameter(header: string, name: string): string | undefined {
  // filename*=UTF-8''encoded (RFC 5987) wins over filename="..."
  const extended = new RegExp(`;\\s*${name}\\*=(?:UTF-8|utf-8)''([^;]+)`).exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      return undefined;
    }
  }
  const quoted = new RegExp(`;\\s*${name}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(header);
  if (quoted) return quoted[1]!.replace(/\\(.)/g, '$1');
  const bare = new RegExp(`;\\s*${name}=([^;\\s]+)`, 'i').exec(header);
  return bare?.[1];
}

export function parseMultipart(body: Buffer, contentType: string | undefined): MultipartPart[] {
  const boundary = multipartBoundary(contentType);
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: MultipartPart[] = [];
  let position = body.indexOf(delimiter);
  if (position === -1) throw new RequestValidationError('multipart body has no part');
  const nextDelimiter = Buffer.from(`\r\n--${boundary}`);
  for (;;) {
    position += delimiter.length;
    // `--` after a delimiter closes the body.
    if (body[position] === 0x2d && body[position + 1] === 0x2d) break;
    // Transport padding, then CRLF.
    while (body[position] === 0x20 || body[position] === 0x09) position += 1;
    if (!body.subarray(position, position + 2).equals(CRLF)) throw new RequestValidationError('malformed multipart body');
    position += 2;
    const headerEnd = body.indexOf(HEADER_END, position);
    if (headerEnd === -1 || headerEnd - position > MAX_HEADER_BYTES) throw new RequestValidationError('malformed multipart part headers');
    const headers = new Map<string, string>();
    for (const line of body.subarray(position, headerEnd).toString('utf8').split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const contentStart = headerEnd + HEADER_END.length;
    const contentEnd = body.indexOf(nextDelimiter, contentStart);
    if (contentEnd === -1) throw new RequestValidationError('multipart body ends without its closing boundary');
    const disposition = headers.get('content-disposition') ?? '';
    const name = headerParameter(disposition, 'name');
    if (!/^form-data\b/i.test(disposition) || name === undefined)
      throw new RequestValidationError('every multipart part needs Content-Disposition: form-data; name="..."');
    parts.push({
      name,
      filename: headerParameter(disposition, 'filename'),
      contentType: headers.get('content-type'),
      data: body.subarray(contentStart, contentEnd),
    });
    if (parts.length > MAX_PARTS) throw new RequestValidationError(`multipart body has more than ${MAX_PARTS} parts`);
    position = contentEnd + 2;
  }
  return parts;
}
