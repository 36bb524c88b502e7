/**
 * Who a message goes to: a phone number, or Meta's business-scoped user id (BSUID) for a customer
 * whose number Meta withholds. Code that reads a recipient switches on `kind`, so the compiler lists
 * every place a new kind must be handled.
 */
import { isBusinessScopedUserId, type BusinessScopedUserId } from './business-scoped-user-id';
import type { PhoneNumber } from './phone-number';

export type Recipient = { readonly kind: 'phone'; readonly phoneNumber: PhoneNumber } | { readonly kind: 'bsuid'; readonly userId: BusinessScopedUserId };

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
 * The recipient reached by its business-scoped user id.
 *
 * @example
 * bsuidRecipient(asBusinessScopedUserId('US.13491208655302741918')!); // { kind: 'bsuid', userId: 'US.13491208655302741918' }
 */
export function bsuidRecipient(userId: BusinessScopedUserId): Recipient {
  return { kind: 'bsuid', userId };
}

/**
 * The value recipients compare by (duplicates in a request, opt-out lists, the messaging limit's
 * reach) and travel as (the outbound queue's `to`, the ledger): for a phone number its E.164
 * digits, for a BSUID the id itself. The two never collide: a BSUID has a dot and letters.
 *
 * @example
 * recipientKeyOf(phoneRecipient(asPhoneNumber('447700900123')!)); // '447700900123'
 * recipientKeyOf(bsuidRecipient(asBusinessScopedUserId('US.1')!)); // 'US.1'
 */
export function recipientKeyOf(recipient: Recipient): string {
  switch (recipient.kind) {
    case 'phone':
      return recipient.phoneNumber;
    case 'bsuid':
      return recipient.userId;
  }
}

/**
 * The recipient a key (`recipientKeyOf`) stands for: a BSUID when it has the BSUID form, a phone
 * number otherwise (every key written before BSUIDs existed is one). Not a validation: the key was
 * checked when the request was accepted.
 *
 * @example
 * recipientOfKey('US.13491208655302741918'); // { kind: 'bsuid', userId: 'US.13491208655302741918' }
 * recipientOfKey('447700900123'); // { kind: 'phone', phoneNumber: '447700900123' }
 */
export function recipientOfKey(key: string): Recipient {
  return isBusinessScopedUserId(key) ? { kind: 'bsuid', userId: key } : { kind: 'phone', phoneNumber: key as PhoneNumber };
}
