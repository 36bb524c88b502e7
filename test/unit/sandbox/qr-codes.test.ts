/** Message QR codes (message_qrdls) and the QR encoder behind their images. */
import { createHash } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { encodeQr, qrPng, qrSvg } from '../../../sandbox/qr-code';
import { useSandbox } from '../../support/use-sandbox';
import { OTHER_TOKEN, PHONE_ID, SECOND_PHONE_ID, expectGraphError, fixtureAccounts } from './sandbox-test-helpers';

const client = useSandbox({ accounts: fixtureAccounts() });

const qrdls = (path = '') => `/${PHONE_ID}/message_qrdls${path}`;

describe('message_qrdls', () => {
  it('creates a code with a wa.me deep link, with or without an image', async () => {
    const plain = await client.graph('POST', qrdls(), { body: { prefilled_message: 'Show me the spring sale' } });
    expect(plain.body).toEqual({
      code: expect.stringMatching(/^[A-Z2-7]{14}$/),
      prefilled_message: 'Show me the spring sale',
      deep_link_url: `https://wa.me/message/${plain.body.code}`,
    });
    const svg = await client.graph('POST', qrdls(), { body: { prefilled_message: 'Hi', generate_qr_image: 'SVG' } });
    expect(svg.body.qr_image_url).toContain('/whatsapp_business/qr_images/');
    const image = await client.download(svg.body.qr_image_url, null);
    expect(image.headers.get('content-type')).toBe('image/svg+xml');
    expect(image.bytes.toString()).toBe(qrSvg(encodeQr(svg.body.deep_link_url)));

    const png = await client.graph('POST', qrdls(), { body: { prefilled_message: 'Hi', generate_qr_image: 'png' } });
    const pngImage = await client.download(png.body.qr_image_url, null);
    expect(pngImage.headers.get('content-type')).toBe('image/png');
    expect(pngImage.bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });

  it('lists codes with fields, a code filter, qr_image_url.format() and paging up to 25', async () => {
    const created = await client.graph('POST', qrdls(), { body: { prefilled_message: 'Listed' } });
    const listed = await client.graph('GET', qrdls());
    expect(listed.body.data).toContainEqual({ code: created.body.code, prefilled_message: 'Listed', deep_link_url: created.body.deep_link_url });
    const filtered = await client.graph('GET', qrdls(`?code=${created.body.code}&fields=prefilled_message,creation_time,qr_image_url.format(SVG)`));
    expect(filtered.body.data).toEqual([
      { code: created.body.code, prefilled_message: 'Listed', creation_time: expect.any(Number), qr_image_url: expect.stringContaining('SVG') },
    ]);
    const page = await client.graph('GET', qrdls('?limit=1'));
    expect(page.body.data).toHaveLength(1);
    expect(page.body.paging.next).toContain('after=');
    expectGraphError(await client.graph('GET', qrdls('?limit=26')), 400, 100);
    expect((await client.graph('GET', qrdls('?fields=colour'))).body.error.message).toContain('nonexisting field (colour)');
    expect((await client.graph('GET', `/${SECOND_PHONE_ID}/message_qrdls`)).body.data).toEqual([]);
  });

  it('reads, updates and deletes one code', async () => {
    const { code } = (await client.graph('POST', qrdls(), { body: { prefilled_message: 'Before' } })).body;
    const read = await client.graph('GET', qrdls(`/${code}`));
    // Both the YAML schema's bare object and its examples' data array.
    expect(read.body).toEqual({
      data: [{ code, prefilled_message: 'Before', deep_link_url: `https://wa.me/message/${code}` }],
      code,
      prefilled_message: 'Before',
      deep_link_url: `https://wa.me/message/${code}`,
    });
    const updated = await client.graph('POST', qrdls(), { body: { code, prefilled_message: 'After' } });
    expect(updated.body).toEqual({ code, prefilled_message: 'After', deep_link_url: `https://wa.me/message/${code}` });
    expect((await client.graph('DELETE', qrdls(`/${code}`))).body).toEqual({ success: true });
    expect((await client.graph('GET', qrdls(`/${code}`))).body.error).toMatchObject({ code: 100, error_subcode: 33 });
    expect((await client.graph('POST', qrdls(), { body: { code, prefilled_message: 'Again' } })).body.error).toMatchObject({ code: 100, error_subcode: 33 });
  });

  it('validates messages, codes, image formats and ownership', async () => {
    expect((await client.graph('POST', qrdls(), { body: {} })).body.error.message).toBe('(#100) The parameter prefilled_message is required.');
    expect((await client.graph('POST', qrdls(), { body: { prefilled_message: 'x'.repeat(141) } })).body.error.message).toContain('at most 140 characters');
    expect((await client.graph('POST', qrdls(), { body: { prefilled_message: 'x', generate_qr_image: 'GIF' } })).body.error.message).toContain('{PNG, SVG}');
    expect((await client.graph('GET', qrdls('/lowercase'))).body.error.message).toContain('Param code must be 14 characters of A-Z and 2-7');
    expectGraphError(await client.graph('GET', qrdls(), { token: OTHER_TOKEN }), 401, 190);
    expect((await client.graph('PUT', qrdls('/ABCDEFGHIJKLMN'))).body.error).toMatchObject({ code: 100, error_subcode: 33 });
    expectGraphError(await client.graph('GET', qrdls('/ABCDEFGHIJKLMN/extra')), 400, 2500);
  });

  it('stops serving the image of a deleted code', async () => {
    const created = await client.graph('POST', qrdls(), { body: { prefilled_message: 'Gone soon', generate_qr_image: 'PNG' } });
    await client.graph('DELETE', qrdls(`/${created.body.code}`));
    expect((await client.download(created.body.qr_image_url, null)).status).toBe(404);
  });
});

describe('QR encoder', () => {
  /** Generated with the reference Python `qrcode` 8.2 (level M, mask 3) for the same text. */
  const REFERENCE = [
    '#######.#.##.#.#..#.#.#######',
    '#.....#.#.####...#....#.....#',
    '#.###.#.....#..##.#.#.#.###.#',
    '#.###.#.#.#...###..#..#.###.#',
    '#.###.#....##.##...##.#.###.#',
    '#.....#..##.##...####.#.....#',
    '#######.#.#.#.#.#.#.#.#######',
    '........###.#..###...........',
    '#.##.###.#.###..#.##..#..#.##',
    '#..#.#.#..#######.#######...#',
    '..##..#.#...##...##..#....##.',
    '#..##.....#.#...#.#.#####...#',
    '#....##.####..#......#...##..',
    '.#.##..#..#.#.#.##.#..#...###',
    '#.#..##.#..#.#....####..#.###',
    '..###...#..#..#.#.#...##...#.',
    '####..#....#..#.#...##.###.#.',
    '....#....#.##.###.#.#....###.',
    '#..##.##.##########.#.###.#..',
    '...##..#..#..##.##.###.#..#..',
    '.##...#......##...#########..',
    '........#.#....##..##...#####',
    '#######.###.#.#..####.#.##.#.',
    '#.....#.#.#######...#...##..#',
    '#.###.#..#.#...####.#####.#..',
    '#.###.#.#.#..#..####.#.###..#',
    '#.###.#.#..###....##...#..#.#',
    '#.....#..#######...##..#.#.#.',
    '#######.#...#...######...#.#.',
  ];

  it('matches the reference encoder module for module', () => {
    const matrix = encodeQr('https://wa.me/message/ANED2T5QRU7HG2', { mask: 3 });
    expect(matrix.version).toBe(3);
    expect(matrix.modules.map((row) => row.map((dark) => (dark ? '#' : '.')).join(''))).toEqual(REFERENCE);
  });

  it('matches the reference for a version with version information and several blocks', () => {
    const matrix = encodeQr('y'.repeat(150), { mask: 6 });
    expect(matrix.version).toBe(8);
    const bits = matrix.modules.map((row) => row.map((dark) => (dark ? '1' : '0')).join('')).join('');
    expect(createHash('sha256').update(bits).digest('hex')).toBe('38ba36018a7962568c8f16321700ede7da3477598e6f313b80ff1cd2f04c1095');
  });

  it('picks the smallest version and a mask by penalty, and refuses text that does not fit', () => {
    expect(encodeQr('hi').version).toBe(1);
    expect(encodeQr('https://wa.me/message/ANED2T5QRU7HG2').mask).toBeGreaterThanOrEqual(0);
    expect(() => encodeQr('z'.repeat(300))).toThrow('does not fit');
  });

  it('renders a PNG whose pixels are the modules with a four-module quiet zone', () => {
    const matrix = encodeQr('hi');
    const png = qrPng(matrix, 2);
    const width = png.readUInt32BE(16);
    expect(width).toBe((matrix.size + 8) * 2);
    const idatLength = png.readUInt32BE(33);
    const pixels = inflateSync(png.subarray(41, 41 + idatLength));
    const pixel = (x: number, y: number) => pixels[y * (width + 1) + 1 + x];
    expect(pixel(0, 0)).toBe(0xff); // quiet zone
    expect(pixel(8, 8)).toBe(0); // top-left finder corner module
    expect(pixel(8 + 2 * 7, 8)).toBe(0xff); // separator after the finder
  });
});
