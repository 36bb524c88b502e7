/** In-memory WrapperIdRecords and PlatformMessageIds for unit tests: the DynamoDB adapter's rules (per organization, expiry). */
import type { PlatformMessageIds, UpstreamSendRecord, WrapperIdRecord, WrapperIdRecords } from '../../shared/upstream/ports';

const DAY_MS = 86_400_000;

export class InMemoryWrapperIdRecords implements WrapperIdRecords {
  readonly media = new Map<string, WrapperIdRecord & { expiresAtMs: number }>();
  readonly messages = new Map<string, WrapperIdRecord & { expiresAtMs: number; direction: 'sent' | 'received'; sendId?: string }>();
  /** Send records in the order written. */
  readonly sends: UpstreamSendRecord[] = [];
  /** When set, every call throws it (storage faults). */
  failure: Error | undefined;

  async recordMedia(record: WrapperIdRecord): Promise<void> {
    this.fail();
    this.media.set(`${record.organizationId}#${record.id}`, { ...record, expiresAtMs: record.recordedAt.getTime() + 30 * DAY_MS });
  }

  async recordMessages(records: readonly WrapperIdRecord[], direction: 'sent' | 'received'): Promise<void> {
    this.fail();
    for (const record of records)
      this.messages.set(`${record.organizationId}#${record.id}`, { ...record, direction, expiresAtMs: record.recordedAt.getTime() + 90 * DAY_MS });
  }

  async recordSends(sends: readonly UpstreamSendRecord[]): Promise<void> {
    this.fail();
    for (const send of sends) {
      this.sends.push(send);
      if (send.messageId === undefined) continue;
      const record = {
        organizationId: send.organizationId,
        wabaId: send.wabaId,
        phoneNumberId: send.phoneNumberId,
        id: send.messageId,
        recordedAt: send.createdAt,
      };
      this.messages.set(`${send.organizationId}#${send.messageId}`, {
        ...record,
        direction: 'sent',
        sendId: send.sendId,
        expiresAtMs: send.createdAt.getTime() + 90 * DAY_MS,
      });
    }
  }

  async ownedMedia(organizationId: string, mediaIds: readonly string[], now: Date): Promise<ReadonlySet<string>> {
    this.fail();
    return new Set(mediaIds.filter((id) => (this.media.get(`${organizationId}#${id}`)?.expiresAtMs ?? 0) > now.getTime()));
  }

  async ownedMessages(organizationId: string, messageIds: readonly string[], now: Date): Promise<ReadonlySet<string>> {
    this.fail();
    return new Set(messageIds.filter((id) => (this.messages.get(`${organizationId}#${id}`)?.expiresAtMs ?? 0) > now.getTime()));
  }

  private fail(): void {
    if (this.failure) throw this.failure;
  }
}

/** Message ids of the platform's ledger: message id → sending organization. */
export class InMemoryPlatformMessageIds implements PlatformMessageIds {
  readonly owners = new Map<string, string>();

  async organizationOf(messageId: string): Promise<string | undefined> {
    return this.owners.get(messageId);
  }
}
