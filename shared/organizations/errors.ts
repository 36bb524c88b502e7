/**
 * Failures of organization administration. The wording of the remove-employee-bulk contract is
 * fixed here; the HTTP error table decides the status codes.
 */

/** The request named no usable e-mail address (every entry blank). The HTTP layer words its other 400s the same way. */
export class NoEmailAddressesError extends Error {
  override readonly name = 'NoEmailAddressesError';
  readonly code = 'NO_EMAIL_ADDRESSES';
  constructor(
    /** What exactly was wrong, for logs; the client sees the contract's fixed message. */
    readonly issues: readonly string[] = [],
  ) {
    super('No email IDs provided');
  }
}

/** None of the addresses names a member of the organization; nothing was removed. */
export class NoEmployeesFoundError extends Error {
  override readonly name = 'NoEmployeesFoundError';
  readonly code = 'NO_EMPLOYEES_FOUND';
  constructor(readonly notFoundEmails: readonly string[]) {
    super('No users found for the provided emails');
  }
}
