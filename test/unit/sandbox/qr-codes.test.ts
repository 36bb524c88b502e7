/** Message QR codes (message_qrdls) and the QR images behind them (the `qrcode` package). */
import QRCode from 'qrcode';
import { QR_CODE_OPTIONS, renderQrImage } from '../../../sandbox/qr-image';
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
    expect(image.bytes.toString()).toBe((await renderQrImage(svg.body.deep_link_url, 'SVG')).toString());

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

describe('QR images', () => {
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
  const LINK = 'https://wa.me/message/ANED2T5QRU7HG2';
  const QUIET_ZONE = 4;
  const asText = (dark: (row: number, column: number) => boolean, size: number) =>
    Array.from({ length: size }, (_, row) => Array.from({ length: size }, (_, column) => (dark(row, column) ? '#' : '.')).join(''));

  /** The dark modules an SVG of the `qrcode` package draws: `M{x} {y}.5h{n}` runs and `m{dx} 0h{n}` continuations. */
  function svgModules(svg: string): { extent: number; dark: Set<string> } {
    const extent = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)![1]);
    const path = /<path stroke="#000000" d="([^"]+)"/.exec(svg)![1]!;
    const dark = new Set<string>();
    let x = 0;
    let y = 0;
    for (const [, command, a, b] of path.matchAll(/([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?/g)) {
      if (command === 'M') [x, y] = [Number(a), Math.floor(Number(b))];
      else if (command === 'm') x += Number(a);
      else for (let end = x + Number(a); x < end; x += 1) dark.add(`${y},${x}`);
    }
    return { extent, dark };
  }

  it('encodes at level M module for module like the reference encoder', () => {
    // The reference wrote the text as one byte segment; the package may mix modes, equally valid.
    const qr = QRCode.create([{ mode: 'byte', data: Buffer.from(LINK) }], { ...QR_CODE_OPTIONS, maskPattern: 3 });
    expect(qr.version).toBe(3);
    expect(asText((row, column) => qr.modules.get(row, column) === 1, qr.modules.size)).toEqual(REFERENCE);
  });

  it('draws the SVG as exactly the modules of the code inside a four-module quiet zone', async () => {
    const qr = QRCode.create(LINK, QR_CODE_OPTIONS);
    const svg = (await renderQrImage(LINK, 'SVG')).toString();
    const { extent, dark } = svgModules(svg);
    expect(extent).toBe(qr.modules.size + 2 * QUIET_ZONE);
    expect(svg).toContain(`width="${extent * 8}"`);
    const drawn = asText((row, column) => dark.has(`${row},${column}`), extent);
    expect(drawn.slice(QUIET_ZONE, -QUIET_ZONE).map((line) => line.slice(QUIET_ZONE, -QUIET_ZONE))).toEqual(
      asText((row, column) => qr.modules.get(row, column) === 1, qr.modules.size),
    );
    expect([...drawn.slice(0, QUIET_ZONE), ...drawn.slice(-QUIET_ZONE)].join('')).not.toContain('#');
  });

  it('renders a PNG of 8 pixels per module with the quiet zone', async () => {
    const png = await renderQrImage(LINK, 'PNG');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.toString('latin1', 12, 16)).toBe('IHDR');
    const extent = (QRCode.create(LINK, QR_CODE_OPTIONS).modules.size + 2 * QUIET_ZONE) * 8;
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([extent, extent]);
    // A PNG encode in pure JS: well under a second alone, past jest's 5 s beside a loaded machine's other suites.
  }, 20_000);
});
