/** The example CSVs the README sends must stay valid for the demo tenant's templates. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoRetailAccount } from '../../../../local/demo-tenant';
import { countPlaceholders } from '../../../../local/demo-seed';
import { parseRecipientsCsv } from '../../../../scripts/broadcast/recipients-csv';

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
