/**
 * A small `multipart/form-data` parser (RFC 7578 on RFC 2046), for the Graph routes that take
 * uploads: media, flow JSON assets and form-encoded flow metadata. The sandbox has no runtime
 * dependencies, and uploads arrive fully buffered (http-io.ts), so a Buffer scan is enough.
 *
 * Deliberately strict where lenience would hide client bugs that Meta rejects: lines must end
 * in CRLF, every part needs `Content-Disposition: form-data; name=...`, and the closing boundary
 * must be present (a truncated upload is an error, not a shorter file).
 */

export class MultipartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MultipartError';
  }
}

export interface MultipartPart {
  name: string;
  /** Present for file parts (`filename=` or RFC 5987 `filename*=`). */
  filename?: string;
  /** The part's own Content-Type; RFC 7578 defaults it to text/plain, left undefined here. */
  contentType?: string;
  data: Buffer;
}

export interface MultipartForm {
  /** Text fields; a repeated name keeps its first value, like URLSearchParams.get. */
  fields: Map<string, string>;
  /** File parts by field name (first one wins as for fields). */
  files: Map<string, MultipartPart>;
  parts: MultipartPart[];
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
/** Far more than any Graph upload has; stops pathological bodies from allocating thousands. */
const MAX_PARTS = 100;
const MAX_HEADER_BYTES = 16 * 1024;
/** RFC 2046 bchars, 1 to 70 of them, not ending in a space. */
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

/** The boundary parameter of a `multipart/form-data` Content-Type, or undefined if it is another type. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const [type = '', ...params] = splitParams(contentType);
  if (type.trim().toLowerCase() !== 'multipart/form-data') return undefined;
  for (const param of params) {
    const [key, value] = param;
    if (key === 'boundary') {
      if (!BOUNDARY.test(value)) throw new MultipartError(`invalid multipart boundary ${JSON.stringify(value)}`);
      return value;
    }
  }
  throw new MultipartError('multipart/form-data Content-Type without a boundary parameter');
}

export function parseMultipart(body: Buffer, boundary: string): MultipartForm {
  const delimiter = Buffer.from(`--${boundary}`);
  const closing = Buffer.concat([CRLF, delimiter]);
  const parts: MultipartPart[] = [];
  // A preamble before the first boundary is allowed (and ignored); the boundary must then start a line.
  let position = body.subarray(0, delimiter.length).equals(delimiter) ? 0 : indexOfLineStart(body, delimiter, 0);
  if (position < 0) throw new MultipartError('multipart body does not contain its boundary');
  position += delimiter.length;

  for (;;) {
    if (body[position] === 0x2d && body[position + 1] === 0x2d) break; // "--": close delimiter
    if (position >= body.length) throw new MultipartError('multipart body has no closing boundary');
    position = skipTransportPadding(body, position);
    if (!startsWith(body, CRLF, position)) throw new MultipartError('multipart boundary line must end with CRLF');
    position += CRLF.length;
    if (parts.length >= MAX_PARTS) throw new MultipartError(`multipart body has more than ${MAX_PARTS} parts`);

    const headerEnd = body.indexOf(HEADER_END, position);
    // A part with no headers at all starts directly with the blank line.
    const noHeaders = startsWith(body, CRLF, position);
    if (!noHeaders && (headerEnd < 0 || headerEnd - position > MAX_HEADER_BYTES)) {
      throw new MultipartError('multipart part headers are not terminated by an empty line');
    }
    const headers = noHeaders ? new Map<string, string>() : parseHeaders(body.subarray(position, headerEnd).toString('utf8'));
    const dataStart = noHeaders ? position + CRLF.length : headerEnd + HEADER_END.length;

    // The CRLF before a boundary belongs to the boundary. Searching from two bytes before the data
    // finds an empty part, whose boundary shares its CRLF with the end of the header block.
    const next = body.indexOf(closing, dataStart - CRLF.length);
    if (next < 0) throw new MultipartError('multipart body has no closing boundary');
    parts.push(toPart(headers, next < dataStart ? Buffer.alloc(0) : body.subarray(dataStart, next)));
    position = next + closing.length;
  }

  const fields = new Map<string, string>();
  const files = new Map<string, MultipartPart>();
  for (const part of parts) {
    if (part.filename !== undefined) {
      if (!files.has(part.name)) files.set(part.name, part);
    } else if (!fields.has(part.name)) {
      fields.set(part.name, part.data.toString('utf8'));
    }
  }
  return { fields, files, parts };
}

function indexOfLineStart(body: Buffer, needle: Buffer, from: number): number {
  const index = body.indexOf(Buffer.concat([CRLF, needle]), from);
  return index < 0 ? -1 : index + CRLF.length;
}

function startsWith(body: Buffer, prefix: Buffer, at: number): boolean {
  return at >= 0 && at + prefix.length <= body.length && body.subarray(at, at + prefix.length).equals(prefix);
}

/** RFC 2046 allows linear whitespace between a boundary and its CRLF. */
function skipTransportPadding(body: Buffer, position: number): number {
  let index = position;
  while (body[index] === 0x20 || body[index] === 0x09) index += 1;
  return index;
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new MultipartError(`malformed multipart header line ${JSON.stringify(line)}`);
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function toPart(headers: Map<string, string>, data: Buffer): MultipartPart {
  const disposition = headers.get('content-disposition');
  if (disposition === undefined) throw new MultipartError('multipart part without a Content-Disposition header');
  const [type = '', ...params] = splitParams(disposition);
  if (type.trim().toLowerCase() !== 'form-data') throw new MultipartError(`multipart part disposition must be form-data, got ${type}`);
  const values = new Map(params);
  const name = values.get('name');
  if (name === undefined || name === '') throw new MultipartError('multipart part without a name');
  const extended = values.get('filename*');
  const filename = extended !== undefined ? decodeExtendedValue(extended) : values.get('filename');
  const contentType = headers.get('content-type');
  return {
    name,
    ...(filename === undefined ? {} : { filename }),
    ...(contentType === undefined || contentType === '' ? {} : { contentType }),
    data,
  };
}

/**
 * Splits `type; key=value; key="quoted \"value\""` into the type and lower-cased keys with
 * unquoted values. Semicolons inside quotes do not split.
 */
function splitParams(header: string): [string, ...Array<[string, string]>] {
  const segments: string[] = [];
  let current = '';
  let quoted = false;
  for (let index = 0; index < header.length; index += 1) {
    const char = header[index] ?? '';
    if (quoted && char === '\\') {
      current += char + (header[index + 1] ?? '');
      index += 1;
    } else if (char === '"') {
      quoted = !quoted;
      current += char;
    } else if (char === ';' && !quoted) {
      segments.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  if (quoted) throw new MultipartError(`unterminated quoted string in ${JSON.stringify(header)}`);
  segments.push(current);
  const [type = '', ...rest] = segments;
  const params: Array<[string, string]> = [];
  for (const segment of rest) {
    const equals = segment.indexOf('=');
    if (equals <= 0) continue;
    const key = segment.slice(0, equals).trim().toLowerCase();
    let value = segment.slice(equals + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
      value = value.slice(1, -1).replace(/\\(.)/g, '$1');
    }
    params.push([key, value]);
  }
  return [type, ...params];
}

/** RFC 5987 `charset'language'percent-encoded`; only UTF-8 (what browsers and curl send). */
function decodeExtendedValue(value: string): string {
  const match = /^([^']*)'[^']*'(.*)$/.exec(value);
  if (match === null || (match[1] ?? '').toLowerCase() !== 'utf-8') {
    throw new MultipartError(`unsupported filename* encoding ${JSON.stringify(value)}`);
  }
  try {
    return decodeURIComponent(match[2] ?? '');
  } catch {
    throw new MultipartError(`malformed filename* value ${JSON.stringify(value)}`);
  }
}
