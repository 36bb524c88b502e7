import * as v from 'valibot';
import { phoneDigitBounds } from '../recipients/phone-number';
import { phoneDigits } from '../recipients/phone-rule';

/** `GET /templates?phone_number=`: the sender whose approved templates are listed. */
export const templatesQuerySchema = v.object({ phone_number: phoneDigits(phoneDigitBounds.sender) });

/** `POST /generate-key`: the sender number the earlier key is issued for. */
export const generateKeySchema = v.object({ phoneNumber: phoneDigits(phoneDigitBounds.international) });
