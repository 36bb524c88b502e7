/** The broadcast module's SuppressionList answered by the inbox's opt-out store (one BatchGet per 100 numbers). */
import type { SuppressionList } from '../broadcast/ports';
import type { OptOutRepository } from '../inbox/opt-outs';

export class InboxSuppressionList implements SuppressionList {
  constructor(private readonly optOuts: Pick<OptOutRepository, 'findSuppressed'>) {}

  suppressedAmong(organizationId: string, phoneNumbers: readonly string[]): Promise<ReadonlySet<string>> {
    return this.optOuts.findSuppressed(organizationId, phoneNumbers);
  }
}
