/**
 * Rich templates (issue 24), headers of every kind, through the local runtime and the Cloud API
 * sandbox: each broadcast gives a value at the broadcast level, and one recipient its own (which
 * wins); after the real chunk worker ran, every recipient reached the sandbox exactly once (so the
 * sandbox's Meta-like validation accepted it) with exactly the expected `template.components`.
 * Buttons, named parameters, carousels and offers: rich-templates-kinds.test.ts.
 */
import type { TestRuntime } from '../../support/local-runtime';
import { chunkOf, readJob, receiveAll, release, runWorkersUntilIdle, useKitRuntime } from './broadcast-test-kit';
import {
  body,
  componentsByRecipient,
  copyCode,
  createTemplates,
  header,
  numberOf,
  postBroadcast,
  richBroadcast,
  richRecipients,
  uploadImage,
  urlButton,
  deliverBroadcast,
} from './rich-templates-kit';

jest.setTimeout(60_000);

const PICTURE = 'https://cdn.example.com/shipped.jpg';

describe('rich templates: headers', () => {
  let runtime: TestRuntime;
  let ownMedia: string;

  useKitRuntime(async (started) => {
    runtime = started;
    await createTemplates(runtime, ['promo_video', 'invoice_ready', 'pickup_point']);
    ownMedia = await uploadImage(runtime);
  });

  const deliver = (broadcast: Record<string, unknown>) => deliverBroadcast(runtime, broadcast);

  it('image header by link (broadcast) and by an uploaded media id (recipient 1), with the URL button', async () => {
    const data = richRecipients(3, 9_710_000_000, (index) => ({
      templateParams: [`Ada${index}`, `A-${index}`],
      buttons: [{ index: 0, type: 'url', text: `A-${index}` }],
      ...(index === 1 && { header: { type: 'image', mediaId: ownMedia } }),
    }));
    const sent = await deliver(richBroadcast('order_shipped', data, { header: { type: 'image', link: PICTURE } }));

    expect(sent.size).toBe(3);
    for (const [index, recipient] of data.entries()) {
      const image = index === 1 ? { id: ownMedia } : { link: PICTURE };
      expect(sent.get(numberOf(recipient))).toEqual([header({ type: 'image', image }), body(`Ada${index}`, `A-${index}`), urlButton(0, `A-${index}`)]);
    }
  });

  it("a recipient's own image link wins over the broadcast's media id", async () => {
    const data = richRecipients(2, 9_710_000_100, (index) => ({
      buttons: [{ index: 0, type: 'url', text: `B-${index}` }],
      ...(index === 0 && { header: { type: 'image', link: 'https://cdn.example.com/own.png' } }),
    }));
    const sent = await deliver(richBroadcast('order_shipped', data, { globalTemplateParams: ['Bo', 'B-1'], header: { type: 'image', mediaId: ownMedia } }));

    expect(sent.get(numberOf(data[0]!))).toEqual([
      header({ type: 'image', image: { link: 'https://cdn.example.com/own.png' } }),
      body('Bo', 'B-1'),
      urlButton(0, 'B-0'),
    ]);
    expect(sent.get(numberOf(data[1]!))).toEqual([header({ type: 'image', image: { id: ownMedia } }), body('Bo', 'B-1'), urlButton(0, 'B-1')]);
  });

  it('video header (a template created on the sandbox)', async () => {
    const data = richRecipients(3, 9_710_000_200, (index) => ({
      templateParams: [`Cy${index}`],
      ...(index === 1 && { header: { type: 'video', mediaId: ownMedia } }),
    }));
    const sent = await deliver(richBroadcast('promo_video', data, { header: { type: 'video', link: 'https://cdn.example.com/promo.mp4' } }));

    expect(sent.size).toBe(3);
    for (const [index, recipient] of data.entries()) {
      const video = index === 1 ? { id: ownMedia } : { link: 'https://cdn.example.com/promo.mp4' };
      expect(sent.get(numberOf(recipient))).toEqual([header({ type: 'video', video }), body(`Cy${index}`)]);
    }
  });

  it("document header with a filename; a recipient's own document without one", async () => {
    const data = richRecipients(3, 9_710_000_300, (index) => ({
      templateParams: [`INV-${index}`],
      ...(index === 2 && { header: { type: 'document', link: 'https://cdn.example.com/own.pdf' } }),
    }));
    const broadcastHeader = { type: 'document', link: 'https://cdn.example.com/invoice.pdf', filename: 'Invoice.pdf' };
    const sent = await deliver(richBroadcast('invoice_ready', data, { header: broadcastHeader }));

    expect(sent.get(numberOf(data[0]!))).toEqual([
      header({ type: 'document', document: { link: 'https://cdn.example.com/invoice.pdf', filename: 'Invoice.pdf' } }),
      body('INV-0'),
    ]);
    expect(sent.get(numberOf(data[1]!))).toEqual([
      header({ type: 'document', document: { link: 'https://cdn.example.com/invoice.pdf', filename: 'Invoice.pdf' } }),
      body('INV-1'),
    ]);
    expect(sent.get(numberOf(data[2]!))).toEqual([header({ type: 'document', document: { link: 'https://cdn.example.com/own.pdf' } }), body('INV-2')]);
  });

  it('text header (the header variable of summer_coupon), with its required coupon code', async () => {
    const data = richRecipients(3, 9_710_000_400, (index) => (index === 1 ? { header: { type: 'text', text: 'Dee' } } : {}));
    const sent = await deliver(
      richBroadcast('summer_coupon', data, { header: { type: 'text', text: 'friend' }, buttons: [{ index: 0, type: 'copy_code', couponCode: 'SUMMER20' }] }),
    );

    expect(sent.size).toBe(3);
    for (const [index, recipient] of data.entries()) {
      expect(sent.get(numberOf(recipient))).toEqual([header({ type: 'text', text: index === 1 ? 'Dee' : 'friend' }), copyCode(0, 'SUMMER20')]);
    }
  });

  it("location header: coordinates as Meta's examples write them (strings), name and address when given", async () => {
    const data = richRecipients(2, 9_710_000_500, (index) => ({
      templateParams: [`P-${index}`],
      ...(index === 1 && { header: { type: 'location', latitude: -33.8568, longitude: 151.2153 } }),
    }));
    const place = { type: 'location', latitude: 37.4421, longitude: -122.1615, name: 'Philz Coffee', address: '101 Forest Ave, Palo Alto, CA 94301' };
    const sent = await deliver(richBroadcast('pickup_point', data, { header: place }));

    expect(sent.get(numberOf(data[0]!))).toEqual([
      header({
        type: 'location',
        location: { latitude: '37.4421', longitude: '-122.1615', name: 'Philz Coffee', address: '101 Forest Ave, Palo Alto, CA 94301' },
      }),
      body('P-0'),
    ]);
    expect(sent.get(numberOf(data[1]!))).toEqual([header({ type: 'location', location: { latitude: '-33.8568', longitude: '151.2153' } }), body('P-1')]);
  });

  it('1,001 recipients of order_shipped (a job of 2 chunks): broadcast header, each recipient accepted once with its own URL suffix', async () => {
    const data = richRecipients(1_001, 9_720_000_000, (index) => ({
      templateParams: [`N${index}`, `O-${index}`],
      buttons: [{ index: 0, type: 'url', text: `T-${index}` }],
    }));
    const response = await postBroadcast(runtime, richBroadcast('order_shipped', data, { header: { type: 'image', link: PICTURE } }));
    expect(response.status).toBe(202);
    expect(response.body.data).toEqual({ jobId: expect.any(String), status: 'PROCESSING', totalRecipients: 1_001, chunkSize: 1_000, totalChunks: 2 });

    const queued = await receiveAll(runtime);
    expect(
      queued
        .map(chunkOf)
        .map((chunk) => chunk.recipients.length)
        .sort((a, b) => a - b),
    ).toEqual([1, 1_000]);
    for (const message of queued) await release(runtime, message);
    await runWorkersUntilIdle(runtime);

    const sent = componentsByRecipient(runtime, 'order_shipped');
    expect(sent.size).toBe(1_001);
    for (const [index, recipient] of data.entries()) {
      expect(sent.get(numberOf(recipient))).toEqual([
        header({ type: 'image', image: { link: PICTURE } }),
        body(`N${index}`, `O-${index}`),
        urlButton(0, `T-${index}`),
      ]);
    }
    expect(await readJob(runtime.demo.organizationId, response.body.data.jobId)).toMatchObject({ status: 'COMPLETED', summary: { sent: 1_001, failed: 0 } });
  }, 120_000);
});
