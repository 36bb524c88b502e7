/** Failures of the local identity provider (local/identity-provider/). */

/** Refused input to the account store: the admin endpoint answers 400 with the message. */
export class InvalidAccountInputError extends Error {
  override readonly name = 'InvalidAccountInputError';
  readonly code = 'INVALID_ACCOUNT_INPUT';
}

/** A request body over the server's limit (a sign-in form or an admin call is a few hundred bytes). */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
  readonly code = 'BODY_TOO_LARGE';
  constructor(limitBytes: number) {
    super(`request body over ${limitBytes} bytes`);
  }
}

/** Consent was asked for a client other than the console, or with nobody signed in: not a state the provider's flow reaches. */
export class UnexpectedConsentError extends Error {
  override readonly name = 'UnexpectedConsentError';
  readonly code = 'UNEXPECTED_CONSENT';
  constructor() {
    super('consent asked without a signed-in console session');
  }
}
