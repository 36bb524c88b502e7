import * as v from 'valibot';
import { phoneDigitBounds } from '../recipients/phone-number';
import { phoneDigits } from '../recipients/phone-rule';

/**
 * `GET /templates?phone_number=&status=`: the sender whose templates are listed; `status=all` lists
 * every status (the default, `approved`, is the contract's list of APPROVED templates).
 */
export const templatesQuerySchema = v.object({
  phone_number: phoneDigits(phoneDigitBounds.sender),
  status: v.optional(v.picklist(['approved', 'all'], 'status must be approved or all'), 'approved'),
});

/** `POST /generate-key`: the sender number the earlier key is issued for. */
export const generateKeySchema = v.object({ phoneNumber: phoneDigits(phoneDigitBounds.international) });
