import { randomBytes } from 'node:crypto';
import { sha256 } from '../crypto/hashing';

/** Identifiers as a port, so tests can predict them. */
export interface IdGenerator {
  /** `prefix_` followed by 26 characters that sort by creation time, e.g. `org_01J9Z3…`. */
  newId(prefix: string): string;
}

const crockfordBase32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * ULID-shaped: 48 bits of milliseconds then 80 random bits. Time first so that listings keyed
 * by id (credentials of an organization) come back in creation order without a separate index.
 */
export function timeOrderedId(now: number = Date.now(), random: Buffer = randomBytes(10)): string {
  let time = '';
  let remaining = now;
  for (let index = 0; index < 10; index += 1) {
    time = crockfordBase32[remaining % 32] + time;
    remaining = Math.floor(remaining / 32);
  }
  let randomPart = '';
  // 80 bits = 16 base32 characters; read them five bits at a time.
  let bitBuffer = 0;
  let bitCount = 0;
  for (const byte of random) {
    bitBuffer = (bitBuffer << 8) | byte;
    bitCount += 8;
    while (bitCount >= 5) {
      bitCount -= 5;
      randomPart += crockfordBase32[(bitBuffer >> bitCount) & 31];
    }
    bitBuffer &= (1 << bitCount) - 1;
  }
  return time + randomPart;
}

export const randomIdGenerator: IdGenerator = {
  newId: (prefix) => `${prefix}_${timeOrderedId()}`,
};

/** Predictable ids (`org_0001`, `cred_0002`, …) for tests. */
export function sequentialIdGenerator(): IdGenerator {
  let counter = 0;
  return {
    newId: (prefix) => {
      counter += 1;
      return `${prefix}_${String(counter).padStart(4, '0')}`;
    },
  };
}

/**
 * `prefix_` and 22 base64url characters drawn from the generator: the shape job ids have always had
 * in answers (`pub_…`, `msg_…`, `leg_…`), with no time order to read from them.
 */
export function opaqueId(ids: IdGenerator, prefix: string): string {
  return `${prefix}_${sha256(ids.newId(prefix)).toString('base64url').slice(0, 22)}`;
}
