/**
 * `sendCommand` with templates the service describes (`parameters`): the request carries the
 * header, buttons, named parameters, offer and carousel the file and options give, and a file or
 * option that does not fit stops the run after the template lookup with no send at all.
 */
import { PassThrough } from 'node:stream';
import type { BroadcastClient, BroadcastRequest, TemplateRecord } from '../../../../client/broadcast-client';
import type { CommonValues } from '../../../../scripts/broadcast/common-values';
import { CliUsageError, RecipientsFileError, TemplateChoiceError } from '../../../../scripts/broadcast/errors';
import { sendCommand } from '../../../../scripts/broadcast/send-command';
import { catalogPromo, orderShipped, productCarousel, welcomeNamed } from '../../../support/rich-template-records';

/** A fake API listing `templates`, accepting every send, each job done at once. */
function fakeClient(templates: TemplateRecord[]) {
  const sends: Array<{ body: BroadcastRequest; key: string }> = [];
  const calls: string[] = [];
  const client = {
    listTemplates: async () => (calls.push('GET templates'), templates),
    sendTemplateBroadcast: async (body: BroadcastRequest, key: string) => {
      calls.push('POST send-template-broadcast');
      sends.push({ body, key });
      return { httpStatus: 200, jobId: `pub_${sends.length}`, message: 'queued' };
    },
    jobStatus: async (jobId: string) => ({
      jobId,
      status: 'COMPLETED',
      totalRecipients: 1,
      totalChunks: 1,
      summary: { sent: 1, failed: 0, unknown: 0, pending: 0, chunksDone: 1, chunksTotal: 1 },
    }),
    recipientsCsv: async () => '',
    listBroadcasts: async () => ({ broadcasts: [], nextCursor: null }),
  } satisfies BroadcastClient;
  return { client, sends, calls };
}

const sink = { out: () => undefined, err: () => undefined, progressStream: new PassThrough(), sleep: async () => undefined };

function send(templates: TemplateRecord[], template: { name: string; language: string }, csv: string, common?: CommonValues) {
  const kit = fakeClient(templates);
  const run = sendCommand(
    kit.client,
    {
      csvPath: '/data/shipped.csv',
      fileContent: Buffer.from(csv),
      fromPhoneNumber: '15550100001',
      templateName: template.name,
      templateLanguage: template.language,
      wait: false,
      pollIntervalMs: 0,
      ...(common ? { common } : {}),
    },
    sink,
  );
  return { ...kit, run };
}

const image = 'https://demo-retail.example/img/parcel.jpg';
const shippedCsv = `phone,param1,param2,button0,headerLink\n+44 7700 900123,Ada,A-1042,A-1042,\n+49 1512 3456789,Linus,A-1044,A-1044,https://demo-retail.example/img/big.jpg\n`;

describe('sendCommand with a rich template', () => {
  it("order_shipped: the option's header for every row, a row's own header and button in its recipient", async () => {
    const { run, sends } = send([orderShipped], orderShipped, shippedCsv, { columns: { headerLink: image } });
    await run;
    expect(sends).toHaveLength(1);
    expect(sends[0]!.body).toEqual({
      broadcastName: 'shipped',
      fromPhoneNumber: '15550100001',
      templateName: 'order_shipped',
      templateLanguage: 'en_US',
      templateType: 'UTILITY',
      header: { type: 'image', link: image },
      data: [
        { countryCode: '44', toPhoneNumber: '7700900123', templateParams: ['Ada', 'A-1042'], buttons: [{ index: 0, type: 'url', text: 'A-1042' }] },
        {
          countryCode: '49',
          toPhoneNumber: '15123456789',
          templateParams: ['Linus', 'A-1044'],
          header: { type: 'image', link: 'https://demo-retail.example/img/big.jpg' },
          buttons: [{ index: 0, type: 'url', text: 'A-1044' }],
        },
      ],
    });
  });

  it('welcome_named: templateParams objects by name, --param-<name> as globalTemplateParams', async () => {
    const { run, sends } = send([welcomeNamed], welcomeNamed, 'phone,first_name\n+44 7700 900123,Ada\n+91 98765 43210,Grace\n', {
      columns: { store: 'Demo Retail Online' },
    });
    await run;
    expect(sends[0]!.body).toMatchObject({
      templateType: 'MARKETING',
      globalTemplateParams: { store: 'Demo Retail Online' },
      data: [
        { countryCode: '44', toPhoneNumber: '7700900123', templateParams: { first_name: 'Ada', store: 'Demo Retail Online' } },
        { countryCode: '91', toPhoneNumber: '9876543210', templateParams: { first_name: 'Grace', store: 'Demo Retail Online' } },
      ],
    });
  });

  it("a carousel file's cards travel as the request's carousel", async () => {
    const cards = [1, 2].map((card) => ({
      header: { type: 'image', link: `https://cdn.example/${card}.jpg` },
      templateParams: [`item ${card}`],
      buttons: [{ index: 0, type: 'url', text: `i${card}` }],
    }));
    const { run, sends } = send([productCarousel], productCarousel, 'phone,param1\n+44 7700 900123,Ada\n', {
      columns: {},
      carousel: { path: 'cards.json', cards },
    });
    await run;
    expect(sends[0]!.body).toMatchObject({ carousel: cards, data: [{ templateParams: ['Ada'] }] });
  });

  it('the values common to every row are part of the Idempotency-Key: another header is another campaign', async () => {
    const first = send([orderShipped], orderShipped, shippedCsv, { columns: { headerLink: image } });
    const again = send([orderShipped], orderShipped, shippedCsv, { columns: { headerLink: image } });
    const other = send([orderShipped], orderShipped, shippedCsv, { columns: { headerLink: 'https://demo-retail.example/img/other.jpg' } });
    await Promise.all([first.run, again.run, other.run]);
    expect(again.sends[0]!.key).toBe(first.sends[0]!.key);
    expect(other.sends[0]!.key).not.toBe(first.sends[0]!.key);
  });
});

describe('sendCommand with a rich template: nothing is sent when the file or an option does not fit', () => {
  it('a row without its dynamic button value: the line and the column, the template read, no send', async () => {
    const { run, calls } = send([orderShipped], orderShipped, 'phone,param1,param2,button0\n+44 7700 900123,Ada,A-1,A-1\n+91 98765 43210,Grace,A-2,\n', {
      columns: { headerLink: image },
    });
    await expect(run).rejects.toThrow(RecipientsFileError);
    await expect(run.catch((error: RecipientsFileError) => error.problems)).resolves.toEqual([
      "line 3: button0 is required: the template's button 0 is a URL button with a variable",
    ]);
    expect(calls).toEqual(['GET templates']);
  });

  it('a media header given nowhere, a missing named column, a positional count that does not match: no send', async () => {
    for (const [template, csv] of [
      [orderShipped, 'phone,param1,param2,button0\n+44 7700 900123,Ada,A-1,A-1\n'],
      [welcomeNamed, 'phone,first_name\n+44 7700 900123,Ada\n'],
      [orderShipped, `phone,param1,button0,headerLink\n+44 7700 900123,Ada,A-1,${image}\n`],
    ] as const) {
      const { run, calls } = send([template], template, csv);
      await expect(run).rejects.toThrow(RecipientsFileError);
      expect(calls).toEqual(['GET templates']);
    }
  });

  it('an option the template does not take is a usage error; no send', async () => {
    const { run, calls } = send([welcomeNamed], welcomeNamed, 'phone,first_name,store\n+44 7700 900123,Ada,Soho\n', { columns: { button0: 'x' } });
    await expect(run).rejects.toThrow(new CliUsageError('--button0: the template has no buttons'));
    expect(calls).toEqual(['GET templates']);
  });

  it('a template the service marks not sendable is refused with its reasons; no send', async () => {
    const { run, calls } = send([catalogPromo], catalogPromo, 'phone\n+44 7700 900123\n');
    await expect(run).rejects.toThrow(
      new TemplateChoiceError('template catalog_promo (en) cannot be sent by a broadcast: buttons[2]: CATALOG buttons cannot be filled by a broadcast'),
    );
    expect(calls).toEqual(['GET templates']);
  });

  it('an older service (no parameters): a rich column is unknown, a common value refused; no send', async () => {
    const older: TemplateRecord = {
      name: 'order_update',
      language: 'en_US',
      category: 'UTILITY',
      status: 'APPROVED',
      components: [{ type: 'BODY', text: 'Hi {{1}}, {{2}}' }],
    };
    const column = send([older], older, `phone,param1,param2,headerLink\n+44 7700 900123,Ada,A-1,${image}\n`);
    await expect(column.run).rejects.toThrow(RecipientsFileError);
    const option = send([older], older, 'phone,param1,param2\n+44 7700 900123,Ada,A-1\n', { columns: { headerLink: image } });
    await expect(option.run).rejects.toThrow(CliUsageError);
    expect([...column.calls, ...option.calls]).toEqual(['GET templates', 'GET templates']);
  });
});
