/** The body of `POST /api-keys` (docs/PEOPLE.md "API keys"). */
import * as v from 'valibot';
import { phoneDigitBounds } from '../recipients/phone-number';
import { phoneDigits } from '../recipients/phone-rule';

/** `{ phoneNumber? }`: a sender number of the organization binds the key to it; `{}` makes a key of the whole organization. */
export const newApiKeySchema = v.object({ phoneNumber: v.optional(phoneDigits(phoneDigitBounds.sender)) }, 'must be a JSON object');
