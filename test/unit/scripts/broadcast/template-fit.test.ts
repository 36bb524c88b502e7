/**
 * A recipients file and the send's common values fitted to a template the service describes
 * (`parameters`): each column kind becomes the recipient's field, each option the broadcast's,
 * and every rule stops the file with the line and the column (or the option) it concerns.
 */
import type { CommonValues } from '../../../../scripts/broadcast/common-values';
import { CliUsageError, RecipientsFileError } from '../../../../scripts/broadcast/errors';
import { parseRecipientsCsv } from '../../../../scripts/broadcast/recipients-csv';
import { fitTemplate, fitWithoutParameters, type FittedFile } from '../../../../scripts/broadcast/template-fit';
import { templateParametersOf } from '../../../../scripts/broadcast/template-parameters';
import {
  invoiceOffer,
  orderShipped,
  productCarousel,
  saleHeadline,
  storeLocation,
  welcomeNamed,
  type RichTemplateRecord,
} from '../../../support/rich-template-records';

function fit(template: RichTemplateRecord, csv: string, common: Partial<CommonValues> = {}): FittedFile {
  return fitTemplate(template, templateParametersOf(template)!, parseRecipientsCsv(csv), { columns: {}, ...common });
}

/** The problems a fit stops with: a file's (one per line) or the options' (one per line of the message). */
function problemsOf(run: () => unknown): { file?: string[]; options?: string[] } {
  try {
    run();
  } catch (error) {
    if (error instanceof RecipientsFileError) return { file: error.problems };
    if (error instanceof CliUsageError) return { options: error.message.split('\n') };
    throw error;
  }
  throw new Error('expected the fit to be refused');
}

const image = 'https://cdn.example/parcel.jpg';

describe('fitTemplate: header columns', () => {
  it("headerLink and headerMediaId become the row's header, its type the template's lowercased", () => {
    const fitted = fit(
      orderShipped,
      `phone,param1,param2,button0,headerLink,headerMediaId\n+44 7700 900123,Ada,A-1,A-1,${image},\n+91 98765 43210,Grace,A-2,A-2,,1602186516975000\n`,
    );
    expect(fitted.recipients.map(({ header }) => header)).toEqual([
      { type: 'image', link: image },
      { type: 'image', mediaId: '1602186516975000' },
    ]);
    expect(fitted.broadcastFields).toEqual({});
  });

  it("--header-link is the broadcast's header; a row's own link or media id wins, replacing both of the option's", () => {
    const fitted = fit(orderShipped, 'phone,param1,param2,button0,headerMediaId\n+44 7700 900123,Ada,A-1,A-1,\n+91 98765 43210,Grace,A-2,A-2,42\n', {
      columns: { headerLink: image },
    });
    expect(fitted.broadcastFields).toEqual({ header: { type: 'image', link: image } });
    expect(fitted.recipients.map(({ header }) => header)).toEqual([undefined, { type: 'image', mediaId: '42' }]);
  });

  it("a document row with its own file name gets a whole header: the option's link and its own file name", () => {
    const fitted = fit(invoiceOffer, 'phone,param1,button0,headerFilename\n+44 7700 900123,Ada,SAVE10,Invoice-0042.pdf\n', {
      columns: { headerLink: 'https://cdn.example/invoice.pdf' },
      limitedTimeOffer: '2099-01-01T00:00:00Z',
    });
    expect(fitted.recipients[0]!.header).toEqual({ type: 'document', link: 'https://cdn.example/invoice.pdf', filename: 'Invoice-0042.pdf' });
    expect(fitted.broadcastFields.header).toEqual({ type: 'document', link: 'https://cdn.example/invoice.pdf' });
  });

  it('a location header takes its coordinates as numbers, with an optional name and address', () => {
    const fitted = fit(
      storeLocation,
      'phone,headerLatitude,headerLongitude,headerName,headerAddress\n+44 7700 900123,51.5129,-0.1243,Covent Garden,1 Long Acre\n+91 98765 43210,19.07,72.87,,\n',
    );
    expect(fitted.recipients.map(({ header }) => header)).toEqual([
      { type: 'location', latitude: 51.5129, longitude: -0.1243, name: 'Covent Garden', address: '1 Long Acre' },
      { type: 'location', latitude: 19.07, longitude: 72.87 },
    ]);
  });

  it('a text header with a variable takes headerText (or --header-text)', () => {
    expect(fit(saleHeadline, 'phone,param1,headerText\n+44 7700 900123,Ada,Spring\n').recipients[0]!.header).toEqual({ type: 'text', text: 'Spring' });
    expect(fit(saleHeadline, 'phone,param1\n+44 7700 900123,Ada\n', { columns: { headerText: 'Summer' } }).broadcastFields).toEqual({
      header: { type: 'text', text: 'Summer' },
    });
  });
});

describe('fitTemplate: header rules', () => {
  it('line N: a media header value missing from a row with no option', () => {
    expect(
      problemsOf(() => fit(orderShipped, `phone,param1,param2,button0,headerLink\n+44 7700 900123,Ada,A-1,A-1,${image}\n+91 98765 43210,Grace,A-2,A-2,\n`)),
    ).toEqual({
      file: ["line 3: headerLink or headerMediaId is required: the template's header is an IMAGE"],
    });
  });

  it('line 1: no header column and no option', () => {
    expect(problemsOf(() => fit(orderShipped, 'phone,param1,param2,button0\n+44 7700 900123,Ada,A-1,A-1\n'))).toEqual({
      file: [
        "line 1: headerLink or headerMediaId is required: the template's header is an IMAGE; add a headerLink or headerMediaId column or give --header-link or --header-media-id",
      ],
    });
  });

  it('line N: both a link and a media id, a link that is not https, a coordinate out of range, a text too long', () => {
    expect(
      problemsOf(() =>
        fit(
          orderShipped,
          `phone,param1,param2,button0,headerLink,headerMediaId\n+44 7700 900123,Ada,A-1,A-1,${image},42\n+91 98765 43210,Grace,A-2,A-2,http://cdn.example/a.jpg,\n`,
        ),
      ),
    ).toEqual({
      file: ['line 2: headerLink and headerMediaId: give one of them, not both', 'line 3: headerLink must be an https:// URL'],
    });
    expect(problemsOf(() => fit(storeLocation, 'phone,headerLatitude,headerLongitude\n+44 7700 900123,91,0\n+91 98765 43210,10,east\n'))).toEqual({
      file: ['line 2: headerLatitude must be a number from -90 to 90', 'line 3: headerLongitude must be a number from -180 to 180'],
    });
    expect(problemsOf(() => fit(saleHeadline, `phone,param1,headerText\n+44 7700 900123,Ada,${'x'.repeat(1025)}\n`))).toEqual({
      file: ['line 2: headerText values must be at most 1024 characters'],
    });
  });

  it('line 1: a header column the template does not take', () => {
    expect(problemsOf(() => fit(orderShipped, `phone,param1,param2,button0,headerLink,headerFilename\n+44 7700 900123,Ada,A-1,A-1,${image},a.pdf\n`))).toEqual({
      file: ["line 1: column headerFilename: the template's header is an IMAGE: it takes headerLink or headerMediaId"],
    });
    expect(problemsOf(() => fit(welcomeNamed, 'phone,first_name,store,headerText\n+44 7700 900123,Ada,Soho,Hi\n'))).toEqual({
      file: ['line 1: column headerText: the template has no header'],
    });
  });

  it('options: one the template does not take, or a malformed value, is a usage error naming the option', () => {
    expect(
      problemsOf(() =>
        fit(orderShipped, 'phone,param1,param2,button0\n+44 7700 900123,Ada,A-1,A-1\n', { columns: { headerLink: image, headerFilename: 'a.pdf' } }),
      ),
    ).toEqual({
      options: ["--header-filename: the template's header is an IMAGE: it takes headerLink or headerMediaId"],
    });
    expect(
      problemsOf(() => fit(orderShipped, 'phone,param1,param2,button0\n+44 7700 900123,Ada,A-1,A-1\n', { columns: { headerLink: 'ftp://cdn.example/a.jpg' } })),
    ).toEqual({
      options: ['--header-link must be an https:// URL'],
    });
  });
});

describe('fitTemplate: button columns', () => {
  it("button0 of a URL button with a variable becomes the row's url entry", () => {
    const fitted = fit(orderShipped, 'phone,param1,param2,button0\n+44 7700 900123,Ada,A-1042,A-1042\n', { columns: { headerLink: image } });
    expect(fitted.recipients[0]).toEqual({
      line: 2,
      countryCode: '44',
      toPhoneNumber: '7700900123',
      templateParams: ['Ada', 'A-1042'],
      buttons: [{ index: 0, type: 'url', text: 'A-1042' }],
    });
  });

  it("COPY_CODE takes a couponCode, QUICK_REPLY an optional payload; options are the broadcast's buttons, a row carries only its own", () => {
    const fitted = fit(
      invoiceOffer,
      'phone,param1,headerLink,button0,button1\n+44 7700 900123,Ada,https://cdn.example/i.pdf,SAVE10,\n+91 98765 43210,Grace,https://cdn.example/j.pdf,,STOP-PROMO\n',
      {
        columns: { button0: 'SUMMER20', button1: 'MORE' },
        limitedTimeOffer: '2099-01-01T00:00:00Z',
      },
    );
    expect(fitted.broadcastFields.buttons).toEqual([
      { index: 0, type: 'copy_code', couponCode: 'SUMMER20' },
      { index: 1, type: 'quick_reply', payload: 'MORE' },
    ]);
    expect(fitted.recipients.map(({ buttons }) => buttons)).toEqual([
      [{ index: 0, type: 'copy_code', couponCode: 'SAVE10' }],
      [{ index: 1, type: 'quick_reply', payload: 'STOP-PROMO' }],
    ]);
  });

  it('a QUICK_REPLY button needs no value', () => {
    const fitted = fit(invoiceOffer, 'phone,param1,headerMediaId,button0\n+44 7700 900123,Ada,42,SAVE10\n', { limitedTimeOffer: '2099-01-01T00:00:00Z' });
    expect(fitted.recipients[0]!.buttons).toEqual([{ index: 0, type: 'copy_code', couponCode: 'SAVE10' }]);
  });
});

describe('fitTemplate: button rules', () => {
  const offer = { limitedTimeOffer: '2099-01-01T00:00:00Z' };

  it("line N: a dynamic button's value missing from a row with no option", () => {
    expect(
      problemsOf(() =>
        fit(orderShipped, 'phone,param1,param2,button0\n+44 7700 900123,Ada,A-1,A-1\n+91 98765 43210,Grace,A-2,\n', { columns: { headerLink: image } }),
      ),
    ).toEqual({
      file: ["line 3: button0 is required: the template's button 0 is a URL button with a variable"],
    });
    expect(problemsOf(() => fit(invoiceOffer, 'phone,param1,headerMediaId,button0\n+44 7700 900123,Ada,42,\n', offer))).toEqual({
      file: ["line 2: button0 is required: the template's button 0 is a COPY_CODE button (its coupon code)"],
    });
  });

  it('line 1: no column and no option for a dynamic button', () => {
    expect(problemsOf(() => fit(orderShipped, 'phone,param1,param2\n+44 7700 900123,Ada,A-1\n', { columns: { headerLink: image } }))).toEqual({
      file: ["line 1: button0 is required: the template's button 0 is a URL button with a variable; add a button0 column or give --button0"],
    });
  });

  it('line 1: a button that takes no value, a button the template does not have', () => {
    expect(problemsOf(() => fit(invoiceOffer, 'phone,param1,headerMediaId,button0,button2,button3,button5\n+44 7700 900123,Ada,42,A,B,C,D\n', offer))).toEqual({
      file: [
        "line 1: column button2: the template's button 2 is a PHONE_NUMBER button: it takes no value",
        "line 1: column button3: the template's button 3 is a URL button without a variable: it takes no value",
        'line 1: column button5: the template has no button 5 (its buttons are 0, 1, 2, 3)',
      ],
    });
    expect(problemsOf(() => fit(welcomeNamed, 'phone,first_name,store,button0\n+44 7700 900123,Ada,Soho,x\n'))).toEqual({
      file: ['line 1: column button0: the template has no buttons'],
    });
  });

  it("line N: a button value past the API's parameter rule; an option the template does not take", () => {
    expect(
      problemsOf(() => fit(orderShipped, `phone,param1,param2,button0\n+44 7700 900123,Ada,A-1,${'x'.repeat(1025)}\n`, { columns: { headerLink: image } })),
    ).toEqual({
      file: ['line 2: button0 values must be at most 1024 characters'],
    });
    expect(
      problemsOf(() => fit(orderShipped, 'phone,param1,param2,button0\n+44 7700 900123,Ada,A-1,A-1\n', { columns: { headerLink: image, button1: 'x' } })),
    ).toEqual({
      options: ['--button1: the template has no button 1 (its buttons are 0)'],
    });
  });
});

describe('fitTemplate: named parameters', () => {
  it("one column per name becomes the row's templateParams object", () => {
    const fitted = fit(welcomeNamed, 'phone,first_name,store\n+44 7700 900123,Ada,Covent Garden\n');
    expect(fitted.recipients[0]!.templateParams).toEqual({ first_name: 'Ada', store: 'Covent Garden' });
    expect(fitted.broadcastFields).toEqual({});
  });

  it('--param-<name> is globalTemplateParams; a row with values of its own carries every name, its cells winning', () => {
    const fitted = fit(welcomeNamed, 'phone,first_name,store\n+44 7700 900123,Ada,\n+91 98765 43210,Grace,Bandra\n', {
      columns: { store: 'Demo Retail Online' },
    });
    expect(fitted.broadcastFields).toEqual({ globalTemplateParams: { store: 'Demo Retail Online' } });
    expect(fitted.recipients.map(({ templateParams }) => templateParams)).toEqual([
      { first_name: 'Ada', store: 'Demo Retail Online' },
      { first_name: 'Grace', store: 'Bandra' },
    ]);
  });

  it('every name from options: rows carry none of their own', () => {
    const fitted = fit(welcomeNamed, 'phone\n+44 7700 900123\n', { columns: { first_name: 'friend', store: 'Soho' } });
    expect(fitted.recipients[0]!.templateParams).toEqual([]);
    expect(fitted.broadcastFields.globalTemplateParams).toEqual({ first_name: 'friend', store: 'Soho' });
  });

  it('line N: a name empty in a row with no option; line 1: a name with no column and no option', () => {
    expect(problemsOf(() => fit(welcomeNamed, 'phone,first_name,store\n+44 7700 900123,Ada,Soho\n+91 98765 43210,Grace,\n'))).toEqual({
      file: ["line 3: store is required: the template's body has {{store}}"],
    });
    expect(problemsOf(() => fit(welcomeNamed, 'phone,first_name\n+44 7700 900123,Ada\n'))).toEqual({
      file: ["line 1: store is required: the template's body has {{store}}; add a store column or give --param-store"],
    });
  });

  it('line 1: an unknown name, param columns for a named template', () => {
    expect(problemsOf(() => fit(welcomeNamed, 'phone,first_name,store,stor\n+44 7700 900123,Ada,Soho,x\n'))).toEqual({
      file: ['line 1: unknown column "stor" (template welcome_named (en_US) takes countryCode and toPhoneNumber, or phone; then first_name, store)'],
    });
    expect(problemsOf(() => fit(welcomeNamed, 'phone,param1,first_name,store\n+44 7700 900123,x,Ada,Soho\n'))).toEqual({
      file: ['line 1: param1: template welcome_named (en_US) has named parameters (first_name, store): name the columns after them'],
    });
  });

  it('options: an unknown name, or a name for a positional template', () => {
    expect(problemsOf(() => fit(welcomeNamed, 'phone,first_name,store\n+44 7700 900123,Ada,Soho\n', { columns: { city: 'London' } }))).toEqual({
      options: ['--param-city: template welcome_named (en_US) has no named parameter city (it has first_name, store)'],
    });
    expect(
      problemsOf(() => fit(orderShipped, 'phone,param1,param2,button0\n+44 7700 900123,Ada,A-1,A-1\n', { columns: { headerLink: image, first_name: 'Ada' } })),
    ).toEqual({
      options: ['--param-first_name: template order_shipped (en_US) has no named parameters (its body parameters are positional: param1 … paramN columns)'],
    });
  });
});

describe('fitTemplate: positional parameters and unknown columns', () => {
  it("line 1: the param columns must match the template's count (the words the CLI has always used)", () => {
    expect(problemsOf(() => fit(orderShipped, 'phone,param1,button0\n+44 7700 900123,Ada,A-1\n', { columns: { headerLink: image } }))).toEqual({
      file: ['line 1: template order_shipped (en_US) has 2 body parameters; the file has 1 param column (param1 … paramN, one per parameter)'],
    });
  });

  it('line 1: an unknown column, with what the template takes', () => {
    expect(problemsOf(() => fit(saleHeadline, 'phone,param1,headerText,city\n+44 7700 900123,Ada,Spring,x\n'))).toEqual({
      file: ['line 1: unknown column "city" (template sale_headline (en) takes countryCode and toPhoneNumber, or phone; then param1, headerText)'],
    });
    expect(
      problemsOf(() => fit(orderShipped, 'phone,param1,param2,button0,parm3\n+44 7700 900123,Ada,A-1,A-1,x\n', { columns: { headerLink: image } })),
    ).toEqual({
      file: [
        'line 1: unknown column "parm3" (template order_shipped (en_US) takes countryCode and toPhoneNumber, or phone; then param1 … param2, headerLink, headerMediaId, button0)',
      ],
    });
  });
});

describe('fitTemplate: limited-time offer and carousel', () => {
  const cards = [
    { header: { type: 'image', link: 'https://cdn.example/1.jpg' }, templateParams: ['Boots'], buttons: [{ index: 0, type: 'url', text: 'boots' }] },
    { header: { type: 'image', mediaId: '42' }, templateParams: ['Scarf'], buttons: [{ index: 0, type: 'url', text: 'scarf' }] },
  ];
  const carouselFile = (given: unknown[]) => ({ carousel: { path: 'cards.json', cards: given } });

  it('--limited-time-offer becomes limitedTimeOffer.expiresAt; required by an offer with an expiry, refused by a template without one', () => {
    const csv = 'phone,param1,headerMediaId,button0\n+44 7700 900123,Ada,42,SAVE10\n';
    expect(fit(invoiceOffer, csv, { limitedTimeOffer: '2099-01-01T00:00:00Z' }).broadcastFields.limitedTimeOffer).toEqual({
      expiresAt: '2099-01-01T00:00:00Z',
    });
    expect(problemsOf(() => fit(invoiceOffer, csv))).toEqual({
      options: ['--limited-time-offer is required: template invoice_offer (en) has a limited-time offer with an expiry'],
    });
    expect(problemsOf(() => fit(welcomeNamed, 'phone,first_name,store\n+44 7700 900123,Ada,Soho\n', { limitedTimeOffer: '2099-01-01T00:00:00Z' }))).toEqual({
      options: ['--limited-time-offer: template welcome_named (en_US) has no limited-time offer'],
    });
  });

  it("--carousel-file's cards become the request's carousel", () => {
    expect(fit(productCarousel, 'phone,param1\n+44 7700 900123,Ada\n', carouselFile(cards)).broadcastFields).toEqual({ carousel: cards });
  });

  it('the carousel file is required by a carousel, refused by another template, and each card is checked', () => {
    const csv = 'phone,param1\n+44 7700 900123,Ada\n';
    expect(problemsOf(() => fit(productCarousel, csv))).toEqual({
      options: ["--carousel-file is required: template product_carousel (en) is a carousel of 2 cards (a JSON file holding the request's carousel array)"],
    });
    expect(problemsOf(() => fit(saleHeadline, 'phone,param1,headerText\n+44 7700 900123,Ada,Spring\n', carouselFile(cards)))).toEqual({
      options: ['--carousel-file: template sale_headline (en) has no carousel'],
    });
    expect(problemsOf(() => fit(productCarousel, csv, carouselFile([cards[0]])))).toEqual({
      options: ['--carousel-file cards.json: template product_carousel (en) has 2 cards; the file holds 1'],
    });
    const broken = [
      { header: { type: 'video', link: 'https://cdn.example/1.mp4' }, templateParams: ['Boots', 'extra'], buttons: [] },
      { header: { type: 'image', link: 'http://cdn.example/2.jpg' }, templateParams: ['Scarf'], buttons: [{ index: 0, type: 'url', text: 'scarf' }] },
    ];
    expect(problemsOf(() => fit(productCarousel, csv, carouselFile(broken)))).toEqual({
      options: [
        "--carousel-file cards.json: card 1: header.type must be image: the template's cards have an IMAGE header",
        "--carousel-file cards.json: card 1: templateParams must be a list of 1 non-empty text: the template's card body has {{1}}",
        "--carousel-file cards.json: card 1: buttons needs the entry of index 0: the template's card button 0 is a URL button with a variable",
        '--carousel-file cards.json: card 2: header.link must be an https:// URL',
      ],
    });
  });
});

describe('fitTemplate: a carousel of named cards', () => {
  const namedCarousel: RichTemplateRecord = {
    ...productCarousel,
    name: 'named_carousel',
    parameters: {
      sendable: true,
      body: { format: 'POSITIONAL', count: 0 },
      carousel: { cards: 2, body: { format: 'NAMED', names: ['product'] }, buttons: [] },
    },
  };

  it('each card needs templateParams by name; a card that is not an object is named', () => {
    const carousel = { path: 'cards.json', cards: [{ templateParams: { product: 'Boots' } }, 'Scarf'] };
    expect(problemsOf(() => fit(namedCarousel, 'phone\n+44 7700 900123\n', { carousel }))).toEqual({
      options: ['--carousel-file cards.json: card 2: must be an object ({ "header": …, "templateParams": …, "buttons": … })'],
    });
    const missing = { path: 'cards.json', cards: [{ templateParams: { product: 'Boots' } }, { templateParams: {} }] };
    expect(problemsOf(() => fit(namedCarousel, 'phone\n+44 7700 900123\n', { carousel: missing }))).toEqual({
      options: ['--carousel-file cards.json: card 2: templateParams needs "product": the template\'s card body has named parameters product'],
    });
  });
});

describe('fitWithoutParameters (a service whose template list has no parameters)', () => {
  const olderRecord = { name: 'order_update', language: 'en_US', components: [{ type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped.' }] };

  it('checks the param columns against the body placeholders, as before', () => {
    const file = parseRecipientsCsv('phone,param1,param2\n+44 7700 900123,Ada,A-1\n');
    expect(fitWithoutParameters(olderRecord, file, { columns: {} })).toEqual({
      recipients: [{ line: 2, countryCode: '44', toPhoneNumber: '7700900123', templateParams: ['Ada', 'A-1'] }],
      broadcastFields: {},
    });
    expect(problemsOf(() => fitWithoutParameters(olderRecord, parseRecipientsCsv('phone,param1\n+44 7700 900123,Ada\n'), { columns: {} }))).toEqual({
      file: ['line 1: template order_update (en_US) has 2 body parameters; the file has 1 param column (param1 … paramN, one per parameter)'],
    });
  });

  it('refuses any other column as unknown (the message it always had) and any common value', () => {
    expect(problemsOf(() => fitWithoutParameters(olderRecord, parseRecipientsCsv('phone,parm1\n447700900123,x\n'), { columns: {} }))).toEqual({
      file: ['line 1: unknown column "parm1" (expected countryCode and toPhoneNumber, or phone; then param1 … paramN)'],
    });
    const file = parseRecipientsCsv('phone,param1,param2\n+44 7700 900123,Ada,A-1\n');
    expect(problemsOf(() => fitWithoutParameters(olderRecord, file, { columns: { button0: 'x' }, limitedTimeOffer: '2099-01-01T00:00:00Z' }))).toEqual({
      options: [
        '--button0, --limited-time-offer: the service lists template order_update (en_US) without its parameters (an older version), so header, button, named-parameter, limited-time-offer and carousel values can be neither checked nor sent',
      ],
    });
  });
});
