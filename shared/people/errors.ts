/**
 * People module errors (docs/PEOPLE.md). No HTTP status here: shared/http/error-responses.ts maps
 * each `code`.
 */

/** The token is missing, malformed, unsigned by a configured issuer, expired, or names no member of an organization. */
export class InvalidPersonTokenError extends Error {
  readonly code = 'INVALID_PERSON_TOKEN';
  constructor(reason = 'The sign-in is not valid or has expired') {
    super(reason);
    this.name = 'InvalidPersonTokenError';
  }
}

/** The person's role does not allow the route (the console hides what this refuses). */
export class RoleNotAllowedError extends Error {
  readonly code = 'ROLE_NOT_ALLOWED';
  constructor(
    readonly needed: string,
    readonly held: string,
  ) {
    super(`This needs the ${needed} role; you have the ${held} role`);
    this.name = 'RoleNotAllowedError';
  }
}

/** A route people may not call with their own token (back ends only: an API key). */
export class PersonNotAllowedError extends Error {
  readonly code = 'PERSON_NOT_ALLOWED';
  constructor() {
    super("This route takes an API key (x-api-key), not a person's sign-in");
    this.name = 'PersonNotAllowedError';
  }
}

/** The issuer's keys (JWKS) or userinfo could not be read; a retry may mend it (503). */
export class IdentityProviderUnavailableError extends Error {
  readonly code = 'IDENTITY_PROVIDER_UNAVAILABLE';
  constructor(detail: string) {
    super(`The identity provider did not answer: ${detail}`);
    this.name = 'IdentityProviderUnavailableError';
  }
}

/** The person is a member of several organizations and the request did not say which (`x-organization-id`). */
export class OrganizationChoiceRequiredError extends Error {
  readonly code = 'ORGANIZATION_CHOICE_REQUIRED';
  constructor() {
    super('You are a member of several organizations: name one in the x-organization-id header');
    this.name = 'OrganizationChoiceRequiredError';
  }
}

/** No person with that id in the organization. */
export class PersonNotFoundError extends Error {
  readonly code = 'PERSON_NOT_FOUND';
  constructor() {
    super('Person not found');
    this.name = 'PersonNotFoundError';
  }
}

/** An admin cannot remove themselves or take away the last admin role (the organization would have no admin). */
export class LastAdminError extends Error {
  readonly code = 'LAST_ADMIN';
  constructor() {
    super('The organization must keep at least one admin');
    this.name = 'LastAdminError';
  }
}

/** Inviting someone who is already a member of the organization (change their role instead). */
export class PersonExistsError extends Error {
  readonly code = 'PERSON_EXISTS';
  constructor() {
    super('This person is already a member of the organization; change their role instead');
    this.name = 'PersonExistsError';
  }
}

/** Managing people takes an admin's sign-in or the organization's own key, not a key bound to one sender. */
export class PeopleManagementOutsideKeyScopeError extends Error {
  readonly code = 'PEOPLE_MANAGEMENT_OUTSIDE_KEY_SCOPE';
  constructor() {
    super("This key is bound to one sender; managing people takes the organization's API key or an admin's sign-in");
    this.name = 'PeopleManagementOutsideKeyScopeError';
  }
}

/** A people command's flag is missing or breaks its rule (the admin CLI; the routes answer their body's 400 VALIDATION_FAILED). */
export class InvalidPeopleInputError extends Error {
  readonly code = 'INVALID_PEOPLE_INPUT';
  constructor(message: string) {
    super(message);
    this.name = 'InvalidPeopleInputError';
  }
}
