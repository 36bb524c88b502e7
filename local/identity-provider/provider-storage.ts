/**
 * Where the local identity provider keeps its sessions, grants, interactions and tokens: one map per
 * provider, in memory (they end with the runtime; the signing keys and accounts are what persist).
 * oidc-provider's own memory adapter has no way to find an account's records; this one does, so the
 * admin endpoint can end every session of a removed person: their sessions, grants and every token
 * of those grants (refresh tokens included) are deleted, and a refresh then answers invalid_grant.
 */

/** oidc-provider's adapter interface (its docs' "Adapter"), for the models it stores. */
export interface ProviderAdapter {
  upsert(id: string, payload: StoredPayload, expiresIn?: number): Promise<void>;
  find(id: string): Promise<StoredPayload | undefined>;
  findByUid(uid: string): Promise<StoredPayload | undefined>;
  findByUserCode(userCode: string): Promise<StoredPayload | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

export type StoredPayload = Record<string, unknown> & { accountId?: string; grantId?: string; uid?: string; userCode?: string; consumed?: number };

export interface ProviderStorage {
  /** The `adapter` option of oidc-provider's configuration (a factory per model name). */
  adapterFor(model: string): ProviderAdapter;
  /** Deletes every session and grant of the account and every token of those grants; how many records went. */
  endSessionsOf(accountId: string): number;
}

interface Entry {
  model: string;
  id: string;
  payload: StoredPayload;
  /** Epoch ms; undefined: kept until deleted. */
  expiresAt?: number;
}

/** How many writes between sweeps of expired records (a local provider's maps stay small). */
const SWEEP_EVERY = 200;

/**
 * A fresh store.
 *
 * @example
 * const storage = createProviderStorage();
 * new Provider(issuer, { adapter: storage.adapterFor, ... });
 * storage.endSessionsOf('acct_…');
 */
export function createProviderStorage(now: () => number = Date.now): ProviderStorage {
  const entries = new Map<string, Entry>();
  let writes = 0;
  const keyOf = (model: string, id: string) => `${model}:${id}`;
  const live = (entry: Entry | undefined): StoredPayload | undefined => {
    if (!entry) return undefined;
    if (entry.expiresAt !== undefined && entry.expiresAt <= now()) {
      entries.delete(keyOf(entry.model, entry.id));
      return undefined;
    }
    return entry.payload;
  };
  const deleteWhere = (matches: (entry: Entry) => boolean): number => {
    let deleted = 0;
    for (const [key, entry] of entries) {
      if (matches(entry)) {
        entries.delete(key);
        deleted += 1;
      }
    }
    return deleted;
  };
  const sweep = () => {
    if (++writes % SWEEP_EVERY === 0) for (const entry of [...entries.values()]) live(entry);
  };
  const findBy = (model: string, field: 'uid' | 'userCode', value: string) =>
    live([...entries.values()].find((entry) => entry.model === model && entry.payload[field] === value));

  const adapterFor = (model: string): ProviderAdapter => ({
    async upsert(id, payload, expiresIn) {
      entries.set(keyOf(model, id), { model, id, payload, ...(typeof expiresIn === 'number' ? { expiresAt: now() + expiresIn * 1000 } : {}) });
      sweep();
    },
    find: async (id) => live(entries.get(keyOf(model, id))),
    findByUid: async (uid) => findBy(model, 'uid', uid),
    findByUserCode: async (userCode) => findBy(model, 'userCode', userCode),
    async consume(id) {
      const payload = live(entries.get(keyOf(model, id)));
      if (payload) payload.consumed = Math.floor(now() / 1000);
    },
    async destroy(id) {
      entries.delete(keyOf(model, id));
    },
    async revokeByGrantId(grantId) {
      deleteWhere((entry) => entry.model === model && entry.payload.grantId === grantId);
    },
  });

  return {
    adapterFor,
    endSessionsOf(accountId) {
      const grantIds = new Set(
        [...entries.values()].filter((entry) => entry.model === 'Grant' && entry.payload.accountId === accountId).map((entry) => entry.id),
      );
      return deleteWhere((entry) => entry.payload.accountId === accountId || (entry.payload.grantId !== undefined && grantIds.has(entry.payload.grantId)));
    },
  };
}
