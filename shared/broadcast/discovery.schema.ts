import * as v from 'valibot';
import { digitsOnly } from './template-broadcast.schema';

/** `GET /templates?phone_number=`: the sender whose approved templates are listed. */
export const templatesQuerySchema = v.object({ phone_number: digitsOnly(6, 15) });

/** `POST /generate-key`: the sender number the earlier key is issued for. */
export const generateKeySchema = v.object({ phoneNumber: digitsOnly(8, 15) });
