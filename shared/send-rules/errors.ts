/** Errors of the send rules (docs/CAMPAIGNS.md "Frequency caps"); their answers are rows of shared/http/error-responses.ts. */

/** A contact policy that breaks a rule; the message names the field and the rule. */
export class InvalidContactPolicyError extends Error {
  override readonly name = 'InvalidContactPolicyError';
  readonly code = 'INVALID_CONTACT_POLICY';
}

/** A key bound to one sender (or generate-key's earlier-only key) may not change the organization's policy. */
export class ContactPolicyOutsideKeyScopeError extends Error {
  override readonly name = 'ContactPolicyOutsideKeyScopeError';
  readonly code = 'CONTACT_POLICY_OUTSIDE_KEY_SCOPE';

  constructor() {
    super("Changing the organization's contact policy needs an organization-scope key or an admin's sign-in");
  }
}
