/**
 * The /upstream wrapper's view of the broadcast ledger: which organization sent a message id
 * (broadcasts, free-form and earlier sends record it on their ledger entry, gsi1 `WAMID#<id>`).
 * The same look-up delivery events use; nothing is copied.
 */
import type { JobStore, RecipientLedger } from '../broadcast/ports';
import type { PlatformMessageIds } from '../upstream/ports';

export class BroadcastMessageIds implements PlatformMessageIds {
  constructor(private readonly broadcasts: Pick<RecipientLedger, 'findByMessageId'> & Pick<JobStore, 'getJob'>) {}

  async organizationOf(messageId: string): Promise<string | undefined> {
    const location = await this.broadcasts.findByMessageId(messageId);
    if (!location) return undefined;
    return (await this.broadcasts.getJob(location.jobId))?.organizationId;
  }
}
