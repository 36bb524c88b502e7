/** SHA-256 digests, the one place domain code hashes (secrets at rest, payload fingerprints, derived ids). */
import { createHash } from 'node:crypto';

export const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
export const sha256Hex = (text: string): string => sha256(text).toString('hex');
export const sha256Base64Url = (text: string): string => sha256(text).toString('base64url');
