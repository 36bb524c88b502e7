/** Media: multipart upload with Meta's type and size limits, retrieve, download, delete. */
import { createHash } from 'node:crypto';
import { useSandbox } from '../../support/use-sandbox';
import { DAY, OTHER_PHONE_ID, OTHER_TOKEN, PHONE_ID, SECOND_PHONE_ID, TestClock, expectGraphError, uploadForm, fixtureAccounts } from './sandbox-test-helpers';

const clock = new TestClock();
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);

const client = useSandbox({ accounts: fixtureAccounts(), now: () => clock.now });

function upload(form: FormData, phoneId = PHONE_ID, token?: string) {
  return client.graph('POST', `/${phoneId}/media`, { form, ...(token === undefined ? {} : { token }) });
}

async function uploaded(data: Buffer = PNG, type = 'image/png', name = 'photo.png'): Promise<string> {
  const result = await upload(uploadForm({ messaging_product: 'whatsapp', type }, { name, type, data }));
  expect(result.status).toBe(200);
  return result.body.id;
}

describe('POST /{phone-number-id}/media', () => {
  it('stores a multipart upload and answers its id', async () => {
    const result = await upload(uploadForm({ messaging_product: 'whatsapp', type: 'image/png' }, { name: 'photo.png', type: 'image/png', data: PNG }));
    expect(result).toMatchObject({ status: 200, body: { id: expect.stringMatching(/^\d+$/) } });
    expect(Object.keys(result.body)).toEqual(['id']);
  });

  it("uses the file part's type, and the type field when the part has none", async () => {
    const declared = await upload(uploadForm({ messaging_product: 'whatsapp', type: 'application/pdf' }, { name: 'doc.pdf', data: '%PDF-1.4' }));
    expect(declared.status).toBe(200);
    const info = await client.graph('GET', `/${declared.body.id}`);
    expect(info.body.mime_type).toBe('application/pdf');
  });

  it("rejects unsupported types with Meta's message", async () => {
    const result = await upload(uploadForm({ messaging_product: 'whatsapp' }, { name: 'x.gif', type: 'image/gif', data: 'GIF89a' }));
    expectGraphError(result, 400, 100);
    expect(result.body.error.message).toMatch(
      /^\(#100\) Param file must be a file with one of the following types: audio\/aac, .*video\/3gpp\. Received file of type 'image\/gif'\.$/,
    );
    const untyped = await upload(uploadForm({ messaging_product: 'whatsapp' }, { name: 'x.bin', data: 'abc' }));
    expect(untyped.body.error.message).toContain("Received file of type 'application/octet-stream'");
  });

  it('enforces the per-type size limits', async () => {
    const sticker = await upload(uploadForm({ messaging_product: 'whatsapp' }, { name: 's.webp', type: 'image/webp', data: Buffer.alloc(500 * 1024 + 1) }));
    expect(sticker.body.error.message).toContain('sticker files may be at most 512000 bytes');
    const image = await upload(uploadForm({ messaging_product: 'whatsapp' }, { name: 'big.jpg', type: 'image/jpeg', data: Buffer.alloc(5 * 1024 * 1024 + 1) }));
    expect(image.body.error.message).toContain('image files may be at most 5242880 bytes');
    const document = await upload(
      uploadForm({ messaging_product: 'whatsapp' }, { name: 'big.pdf', type: 'application/pdf', data: Buffer.alloc(6 * 1024 * 1024) }),
    );
    expect(document.status).toBe(200);
    const empty = await upload(uploadForm({ messaging_product: 'whatsapp' }, { name: 'e.png', type: 'image/png', data: Buffer.alloc(0) }));
    expect(empty.body.error.message).toBe('(#100) Param file must not be empty.');
    // About 12 MB of multipart bodies parsed by busboy: on a loaded 2-core machine (two jest workers
    // beside integration suites) this took over jest's default 5 s once; the limits, not the time, are asserted.
  }, 30_000);

  it('requires messaging_product and a file part', async () => {
    expect((await upload(uploadForm({}, { name: 'a.png', type: 'image/png', data: PNG }))).body.error.message).toBe(
      '(#100) The parameter messaging_product is required.',
    );
    expect((await upload(uploadForm({ messaging_product: 'whatsapp' }))).body.error.message).toBe('(#100) The parameter file is required.');
    // Meta's YAML shows a JSON variant with a curl-style "@/path"; only a real upload carries a file.
    const json = await client.graph('POST', `/${PHONE_ID}/media`, { body: { messaging_product: 'whatsapp', file: '@/local/path/file.jpg;type=image/jpeg' } });
    expect(json.body.error.message).toBe('(#100) Param file must be a file uploaded as multipart/form-data.');
  });

  it('answers code 100 for a malformed multipart body', async () => {
    const result = await client.graph('POST', `/${PHONE_ID}/media`, {
      rawBody: '--abc\r\nContent-Disposition: form-data; name="messaging_product"\r\n\r\nwhatsapp\r\n',
      contentType: 'multipart/form-data; boundary=abc',
    });
    expectGraphError(result, 400, 100);
    expect(result.body.error.message).toBe('(#100) Invalid multipart/form-data body: multipart body has no closing boundary.');
  });

  it("refuses another account's token", async () => {
    expectGraphError(
      await upload(uploadForm({ messaging_product: 'whatsapp' }, { name: 'a.png', type: 'image/png', data: PNG }), PHONE_ID, OTHER_TOKEN),
      401,
      190,
    );
  });
});

describe('GET / DELETE /{media-id} and the download URL', () => {
  it('answers the URL, type, hash and size, and the URL serves the bytes to the owner', async () => {
    const id = await uploaded();
    const info = await client.graph('GET', `/${id}?phone_number_id=${PHONE_ID}`);
    expect(info.body).toEqual({
      messaging_product: 'whatsapp',
      url: expect.stringContaining(`${client.sandbox.url}/whatsapp_business/attachments/?mid=${id}`),
      mime_type: 'image/png',
      sha256: createHash('sha256').update(PNG).digest('hex'),
      file_size: String(PNG.length),
      id,
    });
    const download = await client.download(info.body.url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="photo.png"');
    expect(download.bytes).toEqual(PNG);
  });

  it('requires the Bearer token of the owner for downloads', async () => {
    const { url } = (await client.graph('GET', `/${await uploaded()}`)).body;
    const anonymous = await client.request('GET', url, { token: null });
    expectGraphError(anonymous, 401, 190);
    expectGraphError(await client.request('GET', url, { token: OTHER_TOKEN }), 401, 190);
  });

  it('expires download URLs after five minutes and refuses tampered ones', async () => {
    const id = await uploaded();
    const { url } = (await client.graph('GET', `/${id}`)).body;
    const tampered = url.replace(/hash=[^&]+/, 'hash=forged');
    expect((await client.download(tampered)).status).toBe(404);
    clock.advance(5 * 60_000 + 1);
    expect((await client.download(url)).status).toBe(404);
    const fresh = (await client.graph('GET', `/${id}`)).body.url;
    expect((await client.download(fresh)).status).toBe(200);
  });

  it('treats media as not there for a phone_number_id it was not uploaded on', async () => {
    const id = await uploaded();
    const other = await client.graph('GET', `/${id}?phone_number_id=${SECOND_PHONE_ID}`);
    expectGraphError(other, 400, 100);
    expect(other.body.error).toMatchObject({ type: 'GraphMethodException', error_subcode: 33 });
    expect(other.body.error.message).toContain(`Object with ID '${id}' does not exist`);
    expect((await client.graph('DELETE', `/${id}?phone_number_id=${OTHER_PHONE_ID}`)).body.error.error_subcode).toBe(33);
    // Nothing was deleted by the refused call.
    expect((await client.graph('GET', `/${id}?phone_number_id=${PHONE_ID}`)).status).toBe(200);
    expectGraphError(await client.graph('GET', `/${id}`, { token: OTHER_TOKEN }), 401, 190);
  });

  it('deletes media: the id and its URLs stop working', async () => {
    const id = await uploaded();
    const { url } = (await client.graph('GET', `/${id}`)).body;
    expect((await client.graph('DELETE', `/${id}?phone_number_id=${PHONE_ID}`)).body).toEqual({ success: true });
    expect((await client.graph('GET', `/${id}`)).body.error).toMatchObject({ code: 100, error_subcode: 33 });
    expect((await client.graph('DELETE', `/${id}`)).body.error).toMatchObject({ code: 100, error_subcode: 33 });
    expect((await client.download(url)).status).toBe(404);
  });

  it('forgets media after 30 days', async () => {
    const id = await uploaded();
    clock.advance(30 * DAY);
    expect((await client.graph('GET', `/${id}`)).body.error).toMatchObject({ code: 100, error_subcode: 33 });
  });

  it('rejects edges and methods media does not have', async () => {
    const id = await uploaded();
    expect((await client.graph('POST', `/${id}`, { body: {} })).body.error).toMatchObject({ code: 100, error_subcode: 33 });
    expect((await client.graph('GET', `/${id}/thumbnails`)).body.error.message).toBe(
      '(#100) Tried accessing nonexisting field (thumbnails) on node type (WhatsAppBusinessMedia)',
    );
  });
});
