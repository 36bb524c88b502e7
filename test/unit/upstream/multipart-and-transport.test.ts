/** The multipart reader, the analytics/list helpers, and the fetch transport against a local HTTP server. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseMultipart } from '../../../shared/upstream/multipart';
import { isAllowedMediaUrl, isAnimatedWebp } from '../../../shared/upstream/media-uploads';
import { parseIdList } from '../../../shared/upstream/pass-through';
import { HttpGraphTransport } from '../../../shared/adapters/graph-api/http-graph-transport';
import { UpstreamUnavailableError } from '../../../shared/upstream/errors';
import { RequestValidationError } from '../../../shared/http/errors';

describe('parseMultipart', () => {
  const type = 'multipart/form-data; boundary=----abc';
  const body = (text: string) => Buffer.from(text.replace(/\n/g, '\r\n'));

  it('reads fields and files (binary kept byte for byte, filename* decoded)', () => {
    const binary = Buffer.from([0, 1, 2, 13, 10, 45, 45, 255]);
    const raw = Buffer.concat([
      body(
        '------abc\nContent-Disposition: form-data; name="type"\n\nimage/png\n------abc\nContent-Disposition: form-data; name="file"; filename="a.png"; filename*=UTF-8\'\'caf%C3%A9.png\nContent-Type: image/png\n\n',
      ),
      binary,
      body('\n------abc--\n'),
    ]);
    const parts = parseMultipart(raw, type);
    expect(parts.map((part) => [part.name, part.filename, part.contentType])).toEqual([
      ['type', undefined, undefined],
      ['file', 'café.png', 'image/png'],
    ]);
    expect(parts[0]!.data.toString()).toBe('image/png');
    expect(parts[1]!.data).toEqual(binary);
  });

  it('keeps what the upload rules read: a part without Content-Type, and a part without filename byte for byte', () => {
    const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0xc3]);
    const raw = Buffer.concat([
      body(
        '------abc\nContent-Disposition: form-data; name="file"; filename="a.png"\n\nx\n------abc\nContent-Disposition: form-data; name="raw"\nContent-Type: image/png\n\n',
      ),
      binary,
      body('\n------abc--'),
    ]);
    const parts = parseMultipart(raw, type);
    expect(parts.map((part) => [part.name, part.filename, part.contentType])).toEqual([
      ['file', 'a.png', undefined],
      ['raw', undefined, 'image/png'],
    ]);
    expect(parts[1]!.data).toEqual(binary);
  });

  it('refuses a part without Content-Disposition even next to good parts', () => {
    const raw = body('------abc\nContent-Disposition: form-data; name="a"\n\n1\n------abc\nContent-Type: text/plain\n\nx\n------abc--');
    expect(() => parseMultipart(raw, type)).toThrow('every multipart part needs Content-Disposition: form-data; name="..."');
  });

  it('accepts a quoted boundary and refuses malformed bodies with 400s', () => {
    expect(parseMultipart(body('--q\nContent-Disposition: form-data; name="a"\n\n1\n--q--'), 'multipart/form-data; boundary="q"')[0]!.data.toString()).toBe(
      '1',
    );
    for (const [raw, contentType] of [
      [body('------abc\nContent-Disposition: form-data; name="a"\n\nunterminated'), type],
      [body('no boundary at all'), type],
      [body('------abc\nContent-Type: text/plain\n\nx\n------abc--'), type],
      [body('x'), 'multipart/form-data'],
      [body('x'), 'application/json'],
    ] as const) {
      expect(() => parseMultipart(raw, contentType)).toThrow(RequestValidationError);
    }
  });
});

it("parses id lists in Meta's and plain forms", () => {
  expect(parseIdList('[1,2]')).toEqual(['1', '2']);
  expect(parseIdList('["1", "2"]')).toEqual(['1', '2']);
  expect(parseIdList('1, 2,')).toEqual(['1', '2']);
});

it("recognizes animated WebP and Meta's media hosts", () => {
  expect(isAnimatedWebp(Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBPVP8X'), Buffer.from([0x02, 0, 0, 0, 0x02])]))).toBe(true);
  expect(isAnimatedWebp(Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBPVP8 '), Buffer.alloc(8)]))).toBe(false);
  expect(isAllowedMediaUrl('https://lookaside.fbsbx.com/x', 'https://graph.facebook.com')).toBe(true);
  expect(isAllowedMediaUrl('http://lookaside.fbsbx.com/x', 'https://graph.facebook.com')).toBe(false);
  expect(isAllowedMediaUrl('https://fbsbx.com.evil.example/x', 'https://graph.facebook.com')).toBe(false);
  expect(isAllowedMediaUrl('http://127.0.0.1:4010/media/1', 'http://127.0.0.1:4010')).toBe(true);
});

describe('HttpGraphTransport', () => {
  let server: Server;
  let baseUrl: string;
  const seen: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: Buffer }> = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        seen.push({ method: request.method!, url: request.url!, headers: request.headers, body: Buffer.concat(chunks) });
        if (request.url!.includes('hang')) return; // never answered
        if (request.url!.includes('html')) {
          response.writeHead(502, { 'content-type': 'text/html' });
          return response.end('<html>bad gateway</html>');
        }
        if (request.url!.includes('file')) {
          response.writeHead(200, { 'content-type': 'image/png' });
          return response.end(Buffer.alloc(2048, 1));
        }
        response.writeHead(200, { 'content-type': 'application/json', 'x-business-use-case-usage': '{}' });
        response.end(JSON.stringify({ ok: true }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const transport = () => new HttpGraphTransport({ baseUrl, version: 'v25.0', timeoutMs: 300 });

  it('sends version, query, bearer token and JSON; answers status, headers and parsed body', async () => {
    const response = await transport().request({ method: 'POST', path: '/123/messages', query: { a: 'b c' }, json: { x: 1 }, accessToken: 'EAAG' });
    expect(response).toEqual({ status: 200, headers: expect.objectContaining({ 'x-business-use-case-usage': '{}' }), body: { ok: true } });
    const request = seen[seen.length - 1]!;
    expect(request.url).toBe('/v25.0/123/messages?a=b+c');
    expect(request.headers.authorization).toBe('Bearer EAAG');
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body.toString())).toEqual({ x: 1 });
  });

  it('re-encodes multipart payloads with a boundary', async () => {
    await transport().request({
      method: 'POST',
      path: '/123/media',
      multipart: {
        fields: [['messaging_product', 'whatsapp']],
        files: [{ field: 'file', filename: 'a.png', contentType: 'image/png', data: Buffer.from([1, 2, 3]) }],
      },
      accessToken: 'EAAG',
    });
    const request = seen[seen.length - 1]!;
    expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const parts = parseMultipart(request.body, request.headers['content-type']);
    expect(parts.map((part) => [part.name, part.filename, part.contentType, [...part.data]])).toEqual([
      ['messaging_product', undefined, undefined, [...Buffer.from('whatsapp')]],
      ['file', 'a.png', 'image/png', [1, 2, 3]],
    ]);
  });

  it('keeps a non-JSON body as text, and turns no answer in time into UpstreamUnavailableError(timeout)', async () => {
    expect((await transport().request({ method: 'GET', path: '/html', accessToken: 't' })).body).toBe('<html>bad gateway</html>');
    await expect(transport().request({ method: 'GET', path: '/hang', accessToken: 't' })).rejects.toEqual(new UpstreamUnavailableError('timeout'));
    await expect(transport().request({ method: 'GET', path: '/x', accessToken: 't', timeoutMs: 100_000 })).resolves.toEqual(
      expect.objectContaining({ status: 200 }),
    );
  });

  it('downloads binary bodies up to a size', async () => {
    const file = await transport().download(`${baseUrl}/file`, 'EAAG', { maxBytes: 4096 });
    expect(file.body.length).toBe(2048);
    expect(seen[seen.length - 1]!.headers.authorization).toBe('Bearer EAAG');
    await expect(transport().download(`${baseUrl}/file`, 'EAAG', { maxBytes: 1000 })).rejects.toThrow(/exceeds 1000 bytes/);
  });
});
