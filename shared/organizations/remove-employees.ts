/**
 * Bulk removal of employees by e-mail address (POST /v2/organizations/public/remove-employee-bulk).
 *
 * Membership of the calling organization is revoked; the user and their memberships of other
 * organizations stay. The tenancy module does the removal itself (audit record, then delete);
 * this use case adds the contract's rules around it. See docs/ORGANIZATIONS-AND-V1.md.
 */
import * as v from 'valibot';
import type { RemoveEmployeesInput, RemoveEmployeesResult } from '../tenancy/membership-use-cases';
import { isPlausibleEmail, normalizeEmail } from '../tenancy/tenancy-entities';
import { NoEmailAddressesError, NoEmployeesFoundError } from './errors';

/** Addresses per request: an admin's list, and a bounded amount of work (three writes each) per request. */
export const maxEmailsPerRequest = 500;
/** RFC 5321 caps a forward path at 256 octets; anything longer cannot be an address. */
export const maxEmailLength = 320;

export const removeEmployeesBodySchema = v.object({
  emails: v.pipe(
    v.array(v.pipe(v.string(), v.maxLength(maxEmailLength, `must be at most ${maxEmailLength} characters`))),
    v.minLength(1, 'must hold at least one address'),
    v.maxLength(maxEmailsPerRequest, `must hold at most ${maxEmailsPerRequest} addresses`),
  ),
});

export interface RemoveEmployeesPorts {
  /** The tenancy use case: removes memberships with an audit record each. */
  removeMembers(input: RemoveEmployeesInput): Promise<RemoveEmployeesResult>;
}

export interface RemoveEmployeesByEmailInput {
  organizationId: string;
  emails: readonly string[];
  /** Credential id of the organization token, kept in the audit record. */
  removedBy: string;
}

/**
 * Addresses are trimmed and lower-cased, duplicates are reported once (first occurrence order),
 * blank entries are ignored. Strings that cannot be addresses are reported as not found without a
 * look-up. Throws NoEmailAddressesError when nothing is left, NoEmployeesFoundError when nothing
 * was removed; otherwise every member found is removed (partial success).
 */
export async function removeEmployeesByEmail(ports: RemoveEmployeesPorts, input: RemoveEmployeesByEmailInput): Promise<RemoveEmployeesResult> {
  const emails = [...new Set(input.emails.map(normalizeEmail).filter((email) => email !== ''))];
  if (emails.length === 0) throw new NoEmailAddressesError(['emails holds only blank entries']);

  const candidates = emails.filter(isPlausibleEmail);
  const removed = new Set(
    candidates.length === 0
      ? []
      : (await ports.removeMembers({ organizationId: input.organizationId, emails: candidates, removedBy: input.removedBy })).removedEmails,
  );
  const result = {
    removedEmails: emails.filter((email) => removed.has(email)),
    notFoundEmails: emails.filter((email) => !removed.has(email)),
  };
  if (result.removedEmails.length === 0) throw new NoEmployeesFoundError(result.notFoundEmails);
  return result;
}
