/**
 * Business-scoped user ids (BSUIDs) as the sandbox mints them. Meta's format
 * (../shared/meta/usernames-and-bsuid.md §1): ISO 3166 alpha-2 country of the user's number, a
 * dot, then up to 128 alphanumeric characters (`US.13491208655302741918`); a parent BSUID puts
 * `ENT` between them (`US.ENT.11815799212886844830`).
 *
 * Meta's ids are opaque; the sandbox derives them from (business portfolio, phone) so the same
 * user gets the same id on every run and in every test, and ends the digits with a short tag of
 * the portfolio so a send can tell an id minted for another portfolio (which Meta refuses)
 * without a registry of every id ever handed out.
 */
import { createHash } from 'node:crypto';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { countryOf } from './phone-format';

/** Country, optional `ENT.`, then 1–128 alphanumerics (Meta cut the limit from 256 in Feb 2026). */
const BSUID_PATTERN = /^([A-Z]{2})\.(ENT\.)?([A-Za-z0-9]{1,128})$/;
const ID_DIGITS = 16;
const TAG_DIGITS = 4;

/** Decimal digits of a SHA-256 of the parts, as many as asked for. */
function digitsOf(parts: string[], length: number): string {
  const hash = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  return BigInt(`0x${hash}`).toString().slice(-length).padStart(length, '0');
}

/** The portfolio (or parent account) tag every id of it ends with. */
function scopeTag(scopeId: string): string {
  return digitsOf(['scope', scopeId], TAG_DIGITS);
}

/**
 * ISO 3166 alpha-2 of a number (digits), from libphonenumber-js; for numbers it does not
 * recognise (the 555 test range) the calling code's largest country, as analytics do.
 *
 * @example countryOfPhone('5511987654321') // 'BR'
 */
export function countryOfPhone(digits: string): string {
  return parsePhoneNumberFromString(`+${digits}`)?.country ?? countryOf(digits);
}

/**
 * The BSUID of the user with this number under this business portfolio.
 *
 * @example bsuidOf('9000001', '5511987654321') // 'BR.' + 20 digits, the same on every call
 */
export function bsuidOf(businessId: string, phone: string): string {
  return `${countryOfPhone(phone)}.${digitsOf(['user', businessId, phone], ID_DIGITS)}${scopeTag(businessId)}`;
}

/**
 * The parent BSUID of the user with this number under a parent BSUID account.
 *
 * @example parentBsuidOf('P1', '15551234567') // 'US.ENT.' + 20 digits
 */
export function parentBsuidOf(parentAccountId: string, phone: string): string {
  return `${countryOfPhone(phone)}.ENT.${digitsOf(['parent', parentAccountId, phone], ID_DIGITS)}${scopeTag(parentAccountId)}`;
}

/**
 * The BSUID of a user the sandbox knows only by id (no phone at all), from a stable key.
 *
 * @example bsuidWithoutPhone('9000001', 'ana.r', 'BR') // 'BR.' + 20 digits
 */
export function bsuidWithoutPhone(businessId: string, key: string, country: string): string {
  return `${country}.${digitsOf(['phoneless', businessId, key], ID_DIGITS)}${scopeTag(businessId)}`;
}

export interface ParsedBsuid {
  country: string;
  parent: boolean;
}

/**
 * Meta's format check of a `recipient`; undefined when it is not a BSUID.
 *
 * @example parseBsuid('US.ENT.118157') // { country: 'US', parent: true }
 */
export function parseBsuid(value: string): ParsedBsuid | undefined {
  const match = BSUID_PATTERN.exec(value);
  if (match === null) return undefined;
  return { country: match[1]!, parent: match[2] !== undefined };
}

/**
 * Whether an id the sandbox minted belongs to this portfolio (or parent account).
 *
 * @example belongsTo(bsuidOf('9000001', '15551234567'), '9000001') // true
 */
export function belongsTo(bsuid: string, scopeId: string): boolean {
  return bsuid.endsWith(scopeTag(scopeId));
}
