/**
 * What the logger masks in every log line, whatever a log call passes: the logger applies
 * `maskLogValue` as its JSON replacer (logger.ts), so a future log call cannot leak a phone number
 * or a secret by accident.
 *
 * - A value under a secret-bearing key (tokens, secrets, API keys, passwords, authorization,
 *   signatures) becomes `[REDACTED]`, whatever its type.
 * - A value under a recipient key (`to`, `wa_id`, `phone…` except ids of our numbers) keeps only
 *   its last four digits.
 * - In every other string (error messages, Graph error details, free text), each run of 8 or more
 *   digits (a phone number in E.164 without `+`, with or without it) keeps only its last four.
 *   Meta access tokens (`EAA…`), the platform's generated secrets and JWTs are replaced too.
 *
 * Powertools' own context keys (request id, trace id, function ARN, timestamp) are left as they
 * are: they carry digit runs that are not personal data and are what an operator searches by.
 */

const REDACTED = '[REDACTED]';

/** Keys (lower-cased, without `_`, `-`) whose value is a secret, matched as substrings. */
const secretKeyParts = ['token', 'secret', 'password', 'apikey', 'authorization', 'signature', 'cookie', 'credential', 'privatekey'];

/** Keys whose value is a recipient's phone number. */
const recipientKeys = new Set(['to', 'from', 'waid', 'recipient', 'msisdn']);

/** Powertools' context keys and our request ids: never masked. */
const untouchedKeys = new Set(['functionrequestid', 'xraytraceid', 'functionarn', 'functionname', 'timestamp', 'requestid', 'sqsmessageid', 'correlationid']);

/** 8+ digits not inside a longer word (an id like `job_01J9…` keeps its digits), with an optional `+`. */
const digitRun = /(?<![A-Za-z0-9])\+?\d{4,}(\d{4})(?![A-Za-z0-9])/g;
const longDigitRun = (match: string): boolean => match.replace('+', '').length >= 8;
/**
 * Meta user/system-user access tokens, the platform's generated secrets (prefix + 43 base64url
 * characters), and JWTs (people's ID and access tokens, docs/PEOPLE.md "Tokens": `eyJ…` header, payload, signature).
 */
const tokenShapes = [
  /(?<![A-Za-z0-9])EAA[A-Za-z0-9]{20,}/g,
  /(?<![A-Za-z0-9_-])[a-z][a-z0-9]{1,7}_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g,
  /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g,
];

const normalizeKey = (key: string): string => key.toLowerCase().replace(/[_-]/g, '');

function isSecretKey(normalized: string): boolean {
  return secretKeyParts.some((part) => normalized.includes(part));
}

function isRecipientKey(normalized: string): boolean {
  if (recipientKeys.has(normalized)) return true;
  // phoneNumberId / phone_number_id name our own sender numbers' Meta ids, not a person's number.
  return normalized.startsWith('phone') && !normalized.endsWith('id');
}

/** Keeps the last four digits of each long digit run; masks token shapes. */
export function maskText(text: string): string {
  let masked = text.replace(digitRun, (match, lastFour: string) => (longDigitRun(match) ? `****${lastFour}` : match));
  for (const shape of tokenShapes) masked = masked.replace(shape, REDACTED);
  return masked;
}

function maskRecipient(value: unknown): unknown {
  if (typeof value === 'string') return value.length > 4 ? `****${value.slice(-4)}` : '****';
  if (typeof value === 'number') return maskRecipient(String(value));
  if (Array.isArray(value)) return value.map(maskRecipient);
  return value === null || value === undefined ? value : REDACTED;
}

/** A `JSON.stringify` replacer: called for every key and value of a log line, nested ones included. */
export function maskLogValue(key: string, value: unknown): unknown {
  const normalized = normalizeKey(key);
  if (untouchedKeys.has(normalized)) return value;
  if (normalized !== '' && isSecretKey(normalized)) return value === undefined ? value : REDACTED;
  if (normalized !== '' && isRecipientKey(normalized)) return maskRecipient(value);
  if (typeof value === 'string') return maskText(value);
  return value;
}
