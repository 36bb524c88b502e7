import { samePair, type ContactBook, type IdentityPair, type StoredPair } from '../../shared/inbox/contact-book';
import { optOutKeyFormsOf } from '../../shared/recipients/opt-out-key';

/**
 * The contact book in memory, with the DynamoDB adapter's semantics: one direction per key, a
 * pair written to a key only when it has none, an older one or the same one; `writes` counts the
 * directions written (a known pair must cost none). A number's direction is under its opt-out key;
 * `seed` writes under the digits as given (as directions were stored before the key), which reads
 * find through the number's forms, newest first, marked `olderForm`.
 */
export class InMemoryContactBook implements ContactBook {
  readonly directions = new Map<string, StoredPair>();
  writes = 0;
  batchGets = 0;

  async pairOf(organizationId: string, key: string): Promise<StoredPair | undefined> {
    let newest: StoredPair | undefined;
    optOutKeyFormsOf(key).forEach((form, index) => {
      const pair = this.directions.get(`${organizationId}|${form}`);
      if (pair && (newest === undefined || pair.at > newest.at)) newest = index === 0 ? { ...pair } : { ...pair, olderForm: true };
    });
    return newest;
  }

  async pairsOf(organizationId: string, keys: readonly string[]): Promise<Map<string, StoredPair>> {
    const unique = [...new Set(keys)];
    this.batchGets += Math.ceil(unique.length / 100);
    const found = new Map<string, StoredPair>();
    for (const key of unique) {
      const pair = await this.pairOf(organizationId, key);
      if (pair) found.set(key, pair);
    }
    return found;
  }

  async recordPair(organizationId: string, pair: IdentityPair): Promise<'recorded' | 'stale'> {
    const [phoneKey, ...olderForms] = optOutKeyFormsOf(pair.phoneNumber);
    for (const key of [phoneKey!, pair.userId]) {
      const stored = this.directions.get(`${organizationId}|${key}`);
      if (stored === undefined || stored.at < pair.at) {
        this.directions.set(`${organizationId}|${key}`, { phoneNumber: pair.phoneNumber, userId: pair.userId, at: pair.at });
        this.writes += 1;
      } else if (!samePair(stored, pair)) return 'stale';
    }
    for (const form of olderForms) {
      const stored = this.directions.get(`${organizationId}|${form}`);
      if (stored && stored.at <= pair.at) this.directions.delete(`${organizationId}|${form}`);
    }
    return 'recorded';
  }

  /** Test seeding: both directions of a pair. */
  seed(organizationId: string, pair: IdentityPair): void {
    this.directions.set(`${organizationId}|${pair.phoneNumber}`, { ...pair });
    this.directions.set(`${organizationId}|${pair.userId}`, { ...pair });
  }
}
