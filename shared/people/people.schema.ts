/** Bodies of the people routes (and the admin CLI's flags, parsed into the same shapes; docs/PEOPLE.md "People"). */
import * as v from 'valibot';
import { PERSON_ROLES } from './person-role';

const role = v.picklist(PERSON_ROLES, `must be one of ${PERSON_ROLES.join(', ')}`);

/** `POST /people`: `{ email, role }`. */
export const invitationSchema = v.object({
  email: v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(3, 'must be an e-mail address'),
    v.maxLength(254, 'must be at most 254 characters'),
    v.email('must be an e-mail address'),
  ),
  role,
});

/** `PATCH /people/{personId}`: `{ role }`. */
export const roleChangeSchema = v.object({ role });

export type Invitation = v.InferOutput<typeof invitationSchema>;
