/**
 * A recipient of the earlier send-single / send-bulk as written: its number's parts (judged per
 * recipient: an invalid one is a partial failure), or its business-scoped user id.
 */
import type { JobRecipient } from './ports';
import { callingCodeOfUserId } from '../recipients/international-number';
import { isSplitNumber } from '../recipients/phone-number';

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

/**
 * A written recipient's calling code and key: a number trimmed with its trunk zeros dropped (undefined
 * code when the number breaks the rule), or a business-scoped user id with the calling code of its
 * country (`callingCodeOfUserId`: what prices it).
 *
 * @example
 * addressOfEarlier({ countryCode: '44', toPhoneNumber: '07700900123' }); // { countryCode: '44', to: '447700900123' }
 * addressOfEarlier({ countryCode: '', toPhoneNumber: '', userId: 'US.1' }); // { countryCode: '1', to: 'US.1' }
 */
export function addressOfEarlier(recipient: EarlierRecipient): { countryCode: string | undefined; to: string } {
  if (recipient.userId !== undefined) return { countryCode: callingCodeOfUserId(recipient.userId), to: recipient.userId };
  const countryCode = recipient.countryCode.trim();
  const number = recipient.toPhoneNumber.trim().replace(/^0+/, '');
  return { countryCode: isSplitNumber(countryCode, number) ? countryCode : undefined, to: countryCode + number };
}

/**
 * The recipients list's form of a written recipient: the parts trimmed, or the userId with empty parts.
 *
 * @example
 * listedOfEarlier({ countryCode: '', toPhoneNumber: '', userId: 'US.1' }, 0); // { index: 0, countryCode: '', toPhoneNumber: '', userId: 'US.1' }
 */
export const listedOfEarlier = (recipient: EarlierRecipient, index: number): JobRecipient =>
  recipient.userId === undefined
    ? { index, countryCode: recipient.countryCode.trim(), toPhoneNumber: recipient.toPhoneNumber.trim() }
    : { index, countryCode: '', toPhoneNumber: '', userId: recipient.userId };
