/** Validation shared by the tenancy use cases; failures are InvalidTenancyInputError. */
import { hasDigitsWithin, phoneDigitBounds, type PhoneNumber } from '../recipients/phone-number';
import { InvalidTenancyInputError } from './errors';
import { plans, type Plan } from './tenancy-entities';

export function requireText(value: string | undefined, field: string, maxLength = 200): string {
  const trimmed = value?.trim() ?? '';
  if (!trimmed) throw new InvalidTenancyInputError(`${field} is required`);
  if (trimmed.length > maxLength) throw new InvalidTenancyInputError(`${field} must be at most ${maxLength} characters`);
  return trimmed;
}

/**
 * Upstream identifiers (WABA, business and phone-number ids) become parts of table keys, where `#`
 * separates segments; restricting the alphabet keeps one id from reading as a key prefix of another.
 */
export function requireIdentifier(value: string | undefined, field: string): string {
  const trimmed = value?.trim() ?? '';
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(trimmed)) {
    throw new InvalidTenancyInputError(`${field} must be 1 to 64 letters, digits, dots, dashes or underscores`);
  }
  return trimmed;
}

/** A full international number (the phone rule's `international` bounds: 8 to 15 digits). */
export function requirePhoneDigits(value: string | undefined, field: string): PhoneNumber {
  const trimmed = value?.trim() ?? '';
  const { min, max } = phoneDigitBounds.international;
  if (!hasDigitsWithin(trimmed, phoneDigitBounds.international)) {
    throw new InvalidTenancyInputError(`${field} must be ${min} to ${max} digits, country code included, no +`);
  }
  return trimmed as PhoneNumber;
}

export function requirePlan(value: string | undefined, field = 'plan'): Plan {
  if (!plans.includes(value as Plan)) throw new InvalidTenancyInputError(`${field} must be one of ${plans.join(', ')}`);
  return value as Plan;
}

export function requireOneOf<T extends string>(value: string | undefined, allowed: readonly T[], field: string): T {
  if (!allowed.includes(value as T)) throw new InvalidTenancyInputError(`${field} must be one of ${allowed.join(', ')}`);
  return value as T;
}

export function requireInstant(value: string | undefined, field: string): string {
  const parsed = value === undefined ? Number.NaN : Date.parse(value);
  if (Number.isNaN(parsed)) throw new InvalidTenancyInputError(`${field} must be an ISO 8601 date or date-time`);
  return new Date(parsed).toISOString();
}

export function requirePositiveMicros(value: number, field: string): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw new InvalidTenancyInputError(`${field} must be a positive amount`);
  return value;
}

/** Meta allows 80 messages/s per number by default and up to 1,000 after an upgrade. */
export function optionalSendingRate(value: number | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1 || value > 1000) {
    throw new InvalidTenancyInputError(`${field} must be a whole number of messages per second from 1 to 1000`);
  }
  return value;
}
