/**
 * A recipient of the earlier send-single / send-bulk as written: its number's parts (judged per
 * recipient: an invalid one is a partial failure), or its business-scoped user id.
 */
import type { JobRecipient } from './ports';
import { callingCodeOfCountry } from '../recipients/calling-code';
import { writtenSplitNumber } from '../recipients/phone-rule';

/** A recipient as written: its number's parts, or its business-scoped user id with both parts ''. */
export interface EarlierRecipient {
  countryCode: string;
  toPhoneNumber: string;
  userId?: string;
  templateParams?: string[];
}

/**
 * The recipient a validated request names (send-single's body, each of send-bulk's `data[i]`): the
 * number's parts, or the user id with both parts ''.
 *
 * @example
 * earlierRecipientOf({ userId: 'US.1', templateParams: ['Ann'] }); // { countryCode: '', toPhoneNumber: '', userId: 'US.1', templateParams: ['Ann'] }
 */
export function earlierRecipientOf(written: { countryCode?: string; toPhoneNumber?: string; userId?: string; templateParams?: string[] }): EarlierRecipient {
  const templateParams = written.templateParams === undefined ? {} : { templateParams: written.templateParams };
  return written.userId === undefined
    ? { countryCode: written.countryCode ?? '', toPhoneNumber: written.toPhoneNumber ?? '', ...templateParams }
    : { countryCode: '', toPhoneNumber: '', userId: written.userId, ...templateParams };
}

/** Where a refused recipient's number breaks the rule: its field and the rule's words (the request's partial failure). */
export interface NumberIssue {
  field: 'countryCode' | 'toPhoneNumber';
  rule: string;
}

/**
 * A written recipient's calling code and key: a number by the earlier operations' rule
 * (`writtenSplitNumber`: separators and trunk zeros dropped), or a business-scoped user id with the
 * calling code of its country prefix (`callingCodeOfCountry`: what prices it; undefined when none). A number
 * breaking the rule has no key: its issue names the field, and the ledger keeps it under
 * `refusedRecipientKey` instead.
 *
 * @example
 * addressOfEarlier({ countryCode: '44', toPhoneNumber: '07700 900123' }); // { countryCode: '44', to: '447700900123' }
 * addressOfEarlier({ countryCode: '', toPhoneNumber: '', userId: 'US.1' }); // { countryCode: '1', to: 'US.1' }
 * addressOfEarlier({ countryCode: '', toPhoneNumber: '' }); // { issue: { field: 'countryCode', rule: 'must not be empty' } }
 */
export function addressOfEarlier(recipient: EarlierRecipient): { countryCode: string | undefined; to: string } | { issue: NumberIssue } {
  if (recipient.userId !== undefined) return { countryCode: callingCodeOfCountry(recipient.userId.slice(0, 2)), to: recipient.userId };
  const judged = writtenSplitNumber(recipient.countryCode, recipient.toPhoneNumber);
  return judged.valid ? { countryCode: judged.countryCode, to: judged.number } : { issue: { field: judged.field, rule: judged.rule } };
}

/**
 * The ledger key of a recipient refused because its number breaks the rule: never the written text
 * (which may be empty or hold anything), never a number or a business-scoped user id (`:` is in
 * neither), one per request index. The recipients list shows the number as written beside it.
 *
 * @example
 * refusedRecipientKey(3); // 'invalid:3'
 */
export const refusedRecipientKey = (index: number): string => `invalid:${index}`;

/**
 * The recipients list's form of a written recipient: a valid number's digits (separators dropped,
 * a trunk zero kept as written: what a follow-up's template broadcast takes), a number breaking the
 * rule as written (trimmed, so the client finds its row), or the userId with empty parts.
 *
 * @example
 * listedOfEarlier({ countryCode: '+44', toPhoneNumber: '(0)7700 900-123' }, 0); // { index: 0, countryCode: '44', toPhoneNumber: '07700900123' }
 * listedOfEarlier({ countryCode: '91', toPhoneNumber: ' 98|76 ' }, 1); // { index: 1, countryCode: '91', toPhoneNumber: '98|76' }
 * listedOfEarlier({ countryCode: '', toPhoneNumber: '', userId: 'US.1' }, 2); // { index: 2, countryCode: '', toPhoneNumber: '', userId: 'US.1' }
 */
export function listedOfEarlier(recipient: EarlierRecipient, index: number): JobRecipient {
  if (recipient.userId !== undefined) return { index, countryCode: '', toPhoneNumber: '', userId: recipient.userId };
  const judged = writtenSplitNumber(recipient.countryCode, recipient.toPhoneNumber);
  return judged.valid
    ? { index, countryCode: judged.countryCode, toPhoneNumber: judged.nationalNumber }
    : { index, countryCode: recipient.countryCode.trim(), toPhoneNumber: recipient.toPhoneNumber.trim() };
}
