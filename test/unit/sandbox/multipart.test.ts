/** The sandbox's multipart/form-data parser: RFC 7578 forms and the malformed bodies it refuses. */
import { multipartBoundary, parseMultipart, MultipartError } from '../../../sandbox/multipart';

const CRLF = '\r\n';

function body(boundary: string, parts: Array<{ headers: string[]; data: string | Buffer }>, options: { preamble?: string; epilogue?: string } = {}): Buffer {
  const chunks: Buffer[] = [];
  if (options.preamble !== undefined) chunks.push(Buffer.from(options.preamble + CRLF));
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}${CRLF}${part.headers.join(CRLF)}${CRLF}${CRLF}`));
    chunks.push(typeof part.data === 'string' ? Buffer.from(part.data) : part.data);
    chunks.push(Buffer.from(CRLF));
  }
  chunks.push(Buffer.from(`--${boundary}--${options.epilogue ?? CRLF}`));
  return Buffer.concat(chunks);
}

describe('multipartBoundary', () => {
  it('reads plain and quoted boundaries and ignores other types', () => {
    expect(multipartBoundary('multipart/form-data; boundary=abc123')).toBe('abc123');
    expect(multipartBoundary('Multipart/Form-Data; charset=utf-8; boundary="a b:c"')).toBe('a b:c');
    expect(multipartBoundary('application/json')).toBeUndefined();
    expect(multipartBoundary(undefined)).toBeUndefined();
  });

  it('rejects a missing or invalid boundary', () => {
    expect(() => multipartBoundary('multipart/form-data')).toThrow('without a boundary');
    expect(() => multipartBoundary(`multipart/form-data; boundary=${'x'.repeat(71)}`)).toThrow('invalid multipart boundary');
    expect(() => multipartBoundary('multipart/form-data; boundary="ends with space "')).toThrow('invalid multipart boundary');
  });
});

describe('parseMultipart', () => {
  it('parses fields and files with names, filenames and content types', () => {
    const form = parseMultipart(
      body('XyZ', [
        { headers: ['Content-Disposition: form-data; name="messaging_product"'], data: 'whatsapp' },
        {
          headers: ['Content-Disposition: form-data; name="file"; filename="photo.png"', 'Content-Type: image/png'],
          data: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
        },
      ]),
      'XyZ',
    );
    expect(form.fields.get('messaging_product')).toBe('whatsapp');
    const file = form.files.get('file');
    expect(file).toMatchObject({ name: 'file', filename: 'photo.png', contentType: 'image/png' });
    expect(file?.data).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  });

  it('keeps binary content intact, including CR, LF and text that looks like a boundary', () => {
    const binary = Buffer.from(Array.from({ length: 256 }, (_, index) => index));
    // "--XyZ" only delimits when a CRLF comes right before it.
    const tricky = `line one${CRLF} --XyZ looks like a boundary${CRLF}XyZ--${CRLF}`;
    const form = parseMultipart(
      body('XyZ', [
        { headers: ['Content-Disposition: form-data; name="bin"; filename="all.bin"'], data: binary },
        { headers: ['Content-Disposition: form-data; name="text"'], data: tricky },
      ]),
      'XyZ',
    );
    expect(form.files.get('bin')?.data).toEqual(binary);
    expect(form.fields.get('text')).toBe(tricky);
  });

  it('ignores the preamble and epilogue, and accepts transport padding after a boundary', () => {
    const raw = Buffer.concat([
      Buffer.from(`This is the preamble.${CRLF}--b \t${CRLF}Content-Disposition: form-data; name="a"${CRLF}${CRLF}1${CRLF}`),
      Buffer.from(`--b--${CRLF}epilogue text`),
    ]);
    expect(parseMultipart(raw, 'b').fields.get('a')).toBe('1');
    expect(
      parseMultipart(body('b', [{ headers: ['Content-Disposition: form-data; name="a"'], data: '2' }], { preamble: 'hello', epilogue: 'bye' }), 'b').fields.get(
        'a',
      ),
    ).toBe('2');
  });

  it('handles empty parts, escaped quotes and RFC 5987 filenames', () => {
    const form = parseMultipart(
      body('b', [
        { headers: ['Content-Disposition: form-data; name="empty"'], data: '' },
        { headers: ['Content-Disposition: form-data; name="f"; filename="say \\"hi\\"; ok.txt"'], data: 'x' },
        { headers: ['Content-Disposition: form-data; name="g"; filename="fallback.txt"; filename*=UTF-8\'\'r%C3%A9sum%C3%A9.pdf'], data: 'y' },
      ]),
      'b',
    );
    expect(form.fields.get('empty')).toBe('');
    expect(form.files.get('f')?.filename).toBe('say "hi"; ok.txt');
    expect(form.files.get('g')?.filename).toBe('résumé.pdf');
  });

  it('keeps the first value of a repeated field', () => {
    const form = parseMultipart(
      body('b', [
        { headers: ['Content-Disposition: form-data; name="a"'], data: 'first' },
        { headers: ['Content-Disposition: form-data; name="a"'], data: 'second' },
      ]),
      'b',
    );
    expect(form.fields.get('a')).toBe('first');
    expect(form.parts).toHaveLength(2);
  });

  it.each<[string, Buffer, string]>([
    ['a body without its boundary', Buffer.from('just text'), 'does not contain its boundary'],
    ['a truncated body', Buffer.from(`--b${CRLF}Content-Disposition: form-data; name="a"${CRLF}${CRLF}unfinished`), 'no closing boundary'],
    ['a final boundary without --', Buffer.from(`--b${CRLF}Content-Disposition: form-data; name="a"${CRLF}${CRLF}1${CRLF}--b`), 'no closing boundary'],
    ['LF-only line endings', Buffer.from(`--b\nContent-Disposition: form-data; name="a"\n\n1\n--b--\n`), 'must end with CRLF'],
    ['a part without Content-Disposition', body('b', [{ headers: ['Content-Type: text/plain'], data: '1' }]), 'without a Content-Disposition'],
    ['a part without a name', body('b', [{ headers: ['Content-Disposition: form-data; filename="a.txt"'], data: '1' }]), 'without a name'],
    ['a non form-data disposition', body('b', [{ headers: ['Content-Disposition: attachment; name="a"'], data: '1' }]), 'must be form-data'],
    [
      'a malformed header line',
      body('b', [{ headers: ['Content-Disposition: form-data; name="a"', 'no colon here'], data: '1' }]),
      'malformed multipart header line',
    ],
    ['an unterminated quote', body('b', [{ headers: ['Content-Disposition: form-data; name="a'], data: '1' }]), 'unterminated quoted string'],
    ['headers without the blank line', Buffer.from(`--b${CRLF}Content-Disposition: form-data; name="a"${CRLF}--b--`), 'not terminated by an empty line'],
    [
      'more than 100 parts',
      body(
        'b',
        Array.from({ length: 101 }, (_, index) => ({ headers: [`Content-Disposition: form-data; name="f${index}"`], data: 'x' })),
      ),
      'more than 100 parts',
    ],
  ])('rejects %s', (_case, raw, message) => {
    expect(() => parseMultipart(raw, 'b')).toThrow(MultipartError);
    expect(() => parseMultipart(raw, 'b')).toThrow(message);
  });
});
