/** The example CSVs the README sends must stay valid for the demo tenant's templates. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoRetailAccount } from '../../../../local/demo-tenant';
import { countPlaceholders } from '../../../../local/demo-seed';
import { parseRecipientsCsv } from '../../../../scripts/broadcast/recipients-csv';
import { fitTemplate } from '../../../../scripts/broadcast/template-fit';
import { templateParametersOf } from '../../../../scripts/broadcast/template-parameters';
import { orderShipped, productCarousel, welcomeNamed, type RichTemplateRecord } from '../../../support/rich-template-records';

const examples = join(__dirname, '../../../../examples');
const templateNamed = (name: string) => demoRetailAccount().templates.find((template) => template.name === name)!;

describe('examples/ CSVs for npm run broadcast', () => {
  it.each([
    ['campaign-recipients.csv', 'order_update', 1500],
    ['campaign-phones.csv', 'spring_sale', 5],
  ])('%s: every row valid, one param column per body parameter of %s', (file, templateName, count) => {
    const parsed = parseRecipientsCsv(readFileSync(join(examples, file)));
    const template = templateNamed(templateName);
    expect(template.status).toBe('APPROVED');
    expect(parsed.recipients).toHaveLength(count);
    expect(parsed.parameterCount).toBe(countPlaceholders(template.components));
  });
});

/**
 * The rich examples against the templates as the issue-24 design describes them (the records of
 * test/support/rich-template-records.ts), with the options the README's commands give.
 */
describe('examples/ for rich templates', () => {
  const fitExample = (file: string, template: RichTemplateRecord, columns: Record<string, string>, carousel?: unknown[]) =>
    fitTemplate(template, templateParametersOf(template)!, parseRecipientsCsv(readFileSync(join(examples, file))), {
      columns,
      ...(carousel ? { carousel: { path: 'examples/carousel-cards.json', cards: carousel } } : {}),
    });

  it('order-shipped.csv fits order_shipped with --header-link: one row with its own image, every row its tracking button', () => {
    const fitted = fitExample('order-shipped.csv', orderShipped, { headerLink: 'https://demo-retail.example/img/parcel.jpg' });
    expect(fitted.recipients).toHaveLength(5);
    expect(fitted.recipients.filter((recipient) => recipient.header)).toHaveLength(1);
    expect(fitted.recipients.every((recipient) => recipient.buttons?.[0]?.type === 'url')).toBe(true);
  });

  it('welcome-named.csv fits welcome_named with --param-store for the rows that leave the store empty', () => {
    const fitted = fitExample('welcome-named.csv', welcomeNamed, { store: 'Demo Retail Online' });
    expect(fitted.recipients.map((recipient) => (recipient.templateParams as Record<string, string>).store)).toEqual([
      'Covent Garden',
      'Bandra West',
      'Demo Retail Online',
      'Union Square',
      'Demo Retail Online',
    ]);
  });

  it('carousel-cards.json holds the two cards of a two-card carousel', () => {
    const cards = JSON.parse(readFileSync(join(examples, 'carousel-cards.json'), 'utf8')) as unknown[];
    expect(fitExample('campaign-phones.csv', productCarousel, {}, cards).broadcastFields.carousel).toEqual(cards);
  });
});
