/** Ports of Meta's webhook intake and of the platform's Meta app settings (adapters: shared/adapters/). */

/** The Meta app settings as stored: both secrets encrypted with the token cipher. */
export interface StoredMetaApp {
  encryptedAppSecret: string;
  encryptedVerifyToken: string;
  updatedAt: string;
}

/** The one platform-wide record (tenancy table `PLATFORM` / `META_APP`). */
export interface MetaAppSettingsStore {
  read(): Promise<StoredMetaApp | undefined>;
  write(settings: StoredMetaApp): Promise<void>;
}

/** The decrypted settings the intake checks against. */
export interface MetaAppSecrets {
  appSecret: string;
  verifyToken: string;
}

/** Where the intake gets the decrypted settings (`loadMetaAppSecrets` bound to its ports); undefined: none configured. */
export interface MetaAppSecretSource {
  /** `fresh`: read the store again instead of the process cache (after a check failed against cached values). */
  load(options?: { fresh?: boolean }): Promise<MetaAppSecrets | undefined>;
}

/** The metaEvents queue: one message per accepted webhook POST. */
export interface MetaEventQueue {
  /** `tenant`: the POST's business account (meta-event-tenant.ts), the message's fair-queue group. */
  send(messageBody: string, tenant: string): Promise<void>;
}

/** The metaEvents dead-letter queue, drained back into the queue by `replay-meta-events`. */
export interface MetaEventsDeadLetters {
  /** Moves up to `limit` messages back (sent again, then deleted from the dead-letter queue); returns how many moved. */
  moveBack(limit: number): Promise<number>;
}
