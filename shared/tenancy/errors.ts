/**
 * Failures of the tenancy module. They name what went wrong in domain terms; the HTTP layer of
 * each surface decides the status code and body. Messages never contain secrets or hashes.
 */

/**
 * The presented secret does not authenticate: missing, malformed, unknown, revoked, expired,
 * of another kind, or its organization is not active. One class and one message on purpose,
 * so a caller cannot probe which of these applies.
 */
export class InvalidCredentialError extends Error {
  override readonly name = 'InvalidCredentialError';
  readonly code = 'INVALID_CREDENTIAL';
  constructor() {
    super('Invalid credential');
  }
}

/** The tenancy table timed out or could not be reached. Transient; worth a retry. */
export class TenancyStoreUnavailableError extends Error {
  override readonly name: string = 'TenancyStoreUnavailableError';
  readonly code: string = 'TENANCY_STORE_UNAVAILABLE';
}

/** The credential store timed out during authentication (the contract answers 503 for it). */
export class CredentialStoreUnavailableError extends TenancyStoreUnavailableError {
  override readonly name = 'CredentialStoreUnavailableError';
  override readonly code = 'CREDENTIAL_STORE_UNAVAILABLE';
}

export class InvalidTenancyInputError extends Error {
  override readonly name = 'InvalidTenancyInputError';
  readonly code = 'INVALID_TENANCY_INPUT';
}

export class OrganizationNotFoundError extends Error {
  override readonly name = 'OrganizationNotFoundError';
  readonly code = 'ORGANIZATION_NOT_FOUND';
  constructor(readonly organizationId: string) {
    super(`Organization ${organizationId} does not exist`);
  }
}

export class BusinessAccountNotFoundError extends Error {
  override readonly name = 'BusinessAccountNotFoundError';
  readonly code = 'BUSINESS_ACCOUNT_NOT_FOUND';
  constructor(
    readonly organizationId: string,
    readonly wabaId: string,
  ) {
    super(`Business account ${wabaId} is not connected to organization ${organizationId}`);
  }
}

/** The connection's upstream token no longer works; an operator has to connect the account again. */
/** No organization has connected the business account (no claim of its WABA id): the operators' commands that name an account by WABA id alone. */
export class BusinessAccountNotConnectedError extends Error {
  override readonly name = 'BusinessAccountNotConnectedError';
  readonly code = 'BUSINESS_ACCOUNT_NOT_CONNECTED';
  constructor(readonly wabaId: string) {
    super(`Business account ${wabaId} is not connected to any organization`);
  }
}

export class BusinessAccountNeedsAuthorizationError extends Error {
  override readonly name = 'BusinessAccountNeedsAuthorizationError';
  readonly code = 'BUSINESS_ACCOUNT_NEEDS_AUTHORIZATION';
  constructor(readonly wabaId: string) {
    super(`Business account ${wabaId} needs to be authorized again`);
  }
}

export class PhoneNumberNotFoundError extends Error {
  override readonly name = 'PhoneNumberNotFoundError';
  readonly code = 'PHONE_NUMBER_NOT_FOUND';
  constructor(readonly phoneNumber: string) {
    super(`Phone number ${phoneNumber} is not connected`);
  }
}

export type ClaimedIdentifierKind = 'waba-id' | 'phone-number-digits' | 'phone-number-id';

/** A business account or phone number already belongs to another organization. */
export class IdentifierClaimedByAnotherOrganizationError extends Error {
  override readonly name = 'IdentifierClaimedByAnotherOrganizationError';
  readonly code = 'IDENTIFIER_CLAIMED_BY_ANOTHER_ORGANIZATION';
  constructor(
    readonly identifierKind: ClaimedIdentifierKind,
    readonly identifier: string,
  ) {
    super(`${identifierKind} ${identifier} is already connected to another organization`);
  }
}

export class OrganizationAlreadyExistsError extends Error {
  override readonly name = 'OrganizationAlreadyExistsError';
  readonly code = 'ORGANIZATION_ALREADY_EXISTS';
  constructor(readonly organizationId: string) {
    super(`Organization ${organizationId} already exists`);
  }
}

export class CredentialNotFoundError extends Error {
  override readonly name = 'CredentialNotFoundError';
  readonly code = 'CREDENTIAL_NOT_FOUND';
  constructor(readonly credentialId: string) {
    super(`Credential ${credentialId} does not exist in this organization`);
  }
}

/** The organization's plan does not include what was asked for (the v1 API needs enterprise or the add-on). */
export class PlanDoesNotIncludeFeatureError extends Error {
  override readonly name = 'PlanDoesNotIncludeFeatureError';
  readonly code = 'PLAN_DOES_NOT_INCLUDE_FEATURE';
}

/** A debit larger than the balance (or a debit of a wallet that was never topped up). */
export class InsufficientBalanceError extends Error {
  override readonly name = 'InsufficientBalanceError';
  readonly code = 'INSUFFICIENT_BALANCE';
  constructor(
    readonly organizationId: string,
    readonly requestedMicros: number,
  ) {
    super(`Insufficient balance in the wallet of ${organizationId}`);
  }
}

/** API Gateway did not accept a new key into the broadcast usage plan. */
export class ApiKeyRegistrationError extends Error {
  override readonly name = 'ApiKeyRegistrationError';
  readonly code = 'API_KEY_REGISTRATION';
}

/**
 * generate-key for a number of an organization that has not turned key generation on (or is not
 * active). Answered exactly like an unknown number, so the route reveals nothing about the setting.
 */
export class KeyGenerationNotEnabledError extends Error {
  override readonly name = 'KeyGenerationNotEnabledError';
  readonly code = 'KEY_GENERATION_NOT_ENABLED';
  constructor(readonly organizationId: string) {
    super(`Organization ${organizationId} has not turned key generation on`);
  }
}

/**
 * The credential is valid but its organization is suspended (suspend-organization): refused on every
 * surface with one code until an operator resumes it. Raised only after the credential itself was
 * found valid, so it tells nothing to someone without a real credential.
 */
export class OrganizationSuspendedError extends Error {
  override readonly name = 'OrganizationSuspendedError';
  readonly code = 'ORGANIZATION_SUSPENDED';
  constructor(readonly organizationId: string) {
    super('This organization is suspended: its keys and tokens are refused until it is resumed');
  }
}

/**
 * generate-key for an organization that already holds its limit of live minted keys. Each minted key
 * is an API Gateway key, and the account's key quota is per Region, shared by every tenant: the cap
 * keeps one organization's public number from exhausting it.
 */
export class GeneratedKeyLimitReachedError extends Error {
  override readonly name = 'GeneratedKeyLimitReachedError';
  readonly code = 'GENERATED_KEY_LIMIT_REACHED';
  constructor(
    readonly organizationId: string,
    readonly limit: number,
  ) {
    super(
      `The organization of this number already holds ${limit} keys from generate-key, the most allowed; it must revoke unused ones before another can be generated`,
    );
  }
}

/** An organization's API-key route named a credential that is not one of its broadcast keys (another organization's id reads the same). */
export class ApiKeyNotFoundError extends Error {
  override readonly name = 'ApiKeyNotFoundError';
  readonly code = 'API_KEY_NOT_FOUND';
  constructor() {
    super('No API key of this organization has that credentialId');
  }
}

/** Managing the organization's API keys takes an admin's sign-in or the organization's own key, not a key bound to one sender. */
export class ApiKeyManagementOutsideKeyScopeError extends Error {
  override readonly name = 'ApiKeyManagementOutsideKeyScopeError';
  readonly code = 'API_KEY_MANAGEMENT_OUTSIDE_KEY_SCOPE';
  constructor() {
    super("This key is bound to one sender; managing API keys takes the organization's API key or an admin's sign-in");
  }
}

/** A new key's phoneNumber is not one of the organization's sender numbers. */
export class ApiKeySenderNotFoundError extends Error {
  override readonly name = 'ApiKeySenderNotFoundError';
  readonly code = 'API_KEY_SENDER_NOT_FOUND';
  constructor() {
    super("phoneNumber is not one of the organization's sender numbers (GET /phone-numbers lists them)");
  }
}
