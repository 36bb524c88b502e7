/**
 * Who a message goes to. Today always a phone number; Meta's business-scoped user ids (BSUIDs,
 * for customers who use a WhatsApp username) will be a second kind, so code that reads a recipient
 * switches on `kind` and the compiler lists every place a new kind must be handled.
 */
import type { PhoneNumber } from './phone-number';

export type Recipient = { readonly kind: 'phone'; readonly phoneNumber: PhoneNumber };

export type RecipientKind = Recipient['kind'];

/**
 * The recipient reached at `phoneNumber`.
 *
 * @example
 * phoneRecipient(asPhoneNumber('447700900123')!); // { kind: 'phone', phoneNumber: '447700900123' }
 */
export function phoneRecipient(phoneNumber: PhoneNumber): Recipient {
  return { kind: 'phone', phoneNumber };
}

/**
 * The value recipients compare by (duplicates in a request, opt-out lists, the messaging limit's
 * reach) and a Cloud API send addresses (`to`): for a phone number, its E.164 digits.
 *
 * @example
 * recipientKeyOf(phoneRecipient(asPhoneNumber('447700900123')!)); // '447700900123'
 */
export function recipientKeyOf(recipient: Recipient): string {
  switch (recipient.kind) {
    case 'phone':
      return recipient.phoneNumber;
  }
}
