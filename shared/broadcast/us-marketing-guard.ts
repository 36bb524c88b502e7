/**
 * Meta's US marketing pause (fact sheet row 9; since 2025-04-01): Meta does not deliver MARKETING
 * templates to WhatsApp users with a US phone number (they fail with 131049, still a send against
 * the business's quality). Refused at accept, per recipient, unless the organization turned the
 * guard off (`usMarketingGuard: false`, `npm run admin -- set-us-marketing-guard`; docs/BROADCAST.md
 * "US marketing pause").
 *
 * A US recipient: a +1 number that libphonenumber-js does not place in another North American
 * Numbering Plan country (Canada, Jamaica, …: Meta's pause is about US numbers; a +1 number of an
 * unknown area code counts as US, erring on the side of the pause), or a business-scoped user id
 * whose country prefix is `US` (the prefix is the only country signal a BSUID gives).
 */
import { parsePhoneNumberFromString } from '../recipients/phone-parsing';
import { UsMarketingPausedError } from './errors';
import type { SenderAccount } from './ports';
import type { RecipientInput } from './template-broadcast.schema';

/** The reason code a refused earlier-send recipient is recorded with (failure-reasons.ts). */
export const US_MARKETING_PAUSED = 'US_MARKETING_PAUSED';

/**
 * Whether a recipient key (a number's international digits or a BSUID) is a US user's.
 *
 * @example
 * isUsRecipient('12025550123'); // true
 * isUsRecipient('14165550123'); // false (Canada)
 * isUsRecipient('US.13491208655302741918'); // true
 */
export function isUsRecipient(key: string): boolean {
  if (key.includes('.')) return key.startsWith('US.');
  if (!key.startsWith('1')) return false;
  const country = parsePhoneNumberFromString(`+${key}`)?.country;
  return country === undefined || country === 'US';
}

/**
 * Whether the guard applies to a send: a MARKETING template of an organization that has not turned it off.
 *
 * @example
 * usMarketingGuarded('MARKETING', sender); // true unless sender.usMarketingGuard === false
 */
export const usMarketingGuarded = (category: string, sender: Pick<SenderAccount, 'usMarketingGuard'>): boolean =>
  category === 'MARKETING' && sender.usMarketingGuard !== false;

/**
 * The refusal of a broadcast recipient, naming its index and field (`data[i].countryCode`, or
 * `data[i].userId` for a BSUID) and the rule.
 *
 * @example
 * usMarketingRefusal({ countryCode: '1', toPhoneNumber: '2025550123' }, 4, 'spring_sale'); // UsMarketingPausedError('data[4].countryCode must not be 1 (a US number) for MARKETING template spring_sale: …')
 */
export function usMarketingRefusal(recipient: Pick<RecipientInput, 'userId'>, index: number, templateName: string): UsMarketingPausedError {
  const field =
    recipient.userId === undefined
      ? `data[${index}].countryCode must not be 1 (a US number)`
      : `data[${index}].userId must not be a US user id (${recipient.userId})`;
  return new UsMarketingPausedError(
    `${field} for MARKETING template ${templateName}: Meta has paused marketing templates to US numbers since 2025-04-01 (they fail with 131049); remove the recipient, send a UTILITY template, or ask your operator to turn the organization's US marketing guard off`,
  );
}

/**
 * Refuses a broadcast whose MARKETING template goes to a US recipient (the first one named), when
 * the guard applies; `keys` are the recipients' keys in request order.
 *
 * @example
 * requireNoUsMarketing('MARKETING', sender, 'spring_sale', request.data, keys); // throws for data[i] of a US number
 */
export function requireNoUsMarketing(
  category: string,
  sender: Pick<SenderAccount, 'usMarketingGuard'>,
  templateName: string,
  recipients: readonly Pick<RecipientInput, 'userId'>[],
  keys: readonly string[],
): void {
  if (!usMarketingGuarded(category, sender)) return;
  const index = keys.findIndex(isUsRecipient);
  if (index !== -1) throw usMarketingRefusal(recipients[index]!, index, templateName);
}
