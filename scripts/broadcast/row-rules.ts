/**
 * One row of the recipients CSV judged by the service's own rules, so a file the CLI accepts is a
 * file the API accepts: the recipient schema of the template broadcast request (`addressedRecipientSchema`,
 * imported from the service), then the use case's rules over the whole number (at most 15 digits,
 * no duplicate once trunk zeros are dropped). A full international number in a `phone` column is
 * split with libphonenumber-js first (shared/recipients/international-number.ts).
 */
import * as v from 'valibot';
import { addressedRecipientSchema } from '../../shared/broadcast/template-broadcast.schema';
import { issueMessages } from '../../shared/http/validation';
import { parseInternationalNumber } from '../../shared/recipients/international-number';
import { phoneNumberOfParts, SPLIT_NUMBER_LENGTH_RULE, type PhoneNumber } from '../../shared/recipients/phone-number';

/** A row's recipient as the request carries it (a business-scoped user id: `userId`, the number fields ''). */
export interface RowRecipient {
  countryCode: string;
  toPhoneNumber: string;
  userId?: string;
  templateParams: string[];
}

/** The recipient fields of a row: the split columns, the `phone` column as written, or the `userId` column. */
export type RowNumber = { countryCode: string; toPhoneNumber: string } | { phone: string } | { userId: string };

/** `phoneNumber`: what duplicates compare (the full number, or the business-scoped user id). */
export type RowVerdict = { recipient: RowRecipient; phoneNumber: PhoneNumber | string } | { problems: string[] };

/** `templateParams[0]` of the API's path is the file's `param1`. */
const columnOf = (message: string): string => message.replace(/^templateParams\[(\d+)\]/, (_whole, index: string) => `param${Number(index) + 1}`);

/** The row as the API's recipient schema judges it: every broken rule, one per field, named by column. */
function schemaProblems(recipient: RowRecipient): string[] {
  const address =
    recipient.userId === undefined ? { countryCode: recipient.countryCode, toPhoneNumber: recipient.toPhoneNumber } : { userId: recipient.userId };
  const candidate = { ...address, ...(recipient.templateParams.length > 0 ? { templateParams: recipient.templateParams } : {}) };
  const result = v.safeParse(addressedRecipientSchema, candidate, { abortPipeEarly: true });
  return result.success ? [] : issueMessages(result.issues, 'row').map(columnOf);
}

/**
 * The row's recipient and its whole number, or every rule it breaks (without the line, which the
 * caller adds). Empty parameter cells are refused too: the API would send an empty value, which
 * in a spreadsheet is far more likely a missed cell than a meant one.
 *
 * @example
 * judgeRow({ countryCode: '91', toPhoneNumber: '12' }, ['A', 'B']); // { problems: ['toPhoneNumber must have at least 4 digits'] }
 */
export function judgeRow(number: RowNumber, templateParams: string[]): RowVerdict {
  if ('userId' in number) return judgeUserIdRow(number.userId, templateParams);
  let split: { countryCode: string; toPhoneNumber: string };
  let readAs = '';
  if ('phone' in number) {
    const international = parseInternationalNumber(number.phone);
    if (typeof international === 'string') return { problems: [`phone ${international}`] };
    split = { countryCode: international.countryCode, toPhoneNumber: international.nationalNumber };
    readAs = ` (phone read as countryCode ${split.countryCode} and toPhoneNumber ${split.toPhoneNumber})`;
  } else {
    split = number;
  }
  const recipient = { ...split, templateParams };
  const problems = schemaProblems(recipient).map((problem) => (/^(countryCode|toPhoneNumber) /.test(problem) ? problem + readAs : problem));
  templateParams.forEach((value, position) => {
    if (value === '') problems.push(`param${position + 1} must not be empty`);
  });
  if (problems.length > 0) return { problems };
  const phoneNumber = phoneNumberOfParts(split.countryCode, split.toPhoneNumber);
  if (!phoneNumber) return { problems: [SPLIT_NUMBER_LENGTH_RULE + readAs] };
  return { recipient, phoneNumber };
}

/** A row addressed by its `userId` column: the API's rule for the id, the same rule for the parameters. */
function judgeUserIdRow(userId: string, templateParams: string[]): RowVerdict {
  const recipient: RowRecipient = { countryCode: '', toPhoneNumber: '', userId, templateParams };
  const problems = schemaProblems(recipient);
  templateParams.forEach((value, position) => {
    if (value === '') problems.push(`param${position + 1} must not be empty`);
  });
  return problems.length > 0 ? { problems } : { recipient, phoneNumber: userId };
}
