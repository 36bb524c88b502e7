/** The inbox's opt-out list seen by other modules: broadcasts read it (at accept and again at send time), the delivery processor adds to it. */
import type { SuppressionList } from '../broadcast/ports';
import type { OptOutRecorder } from '../delivery/ports';
import { addOptOut, type OptOutPorts, type OptOutRepository } from '../inbox/opt-outs';

/** The broadcast module's SuppressionList: numbers matched by opt-out key (the accept path and the chunk worker; the store reads the list or a BatchGet per 100 keys). */
export class InboxSuppressionList implements SuppressionList {
  constructor(private readonly optOuts: Pick<OptOutRepository, 'findSuppressed'>) {}

  suppressedAmong(organizationId: string, phoneNumbers: readonly string[]): Promise<ReadonlySet<string>> {
    return this.optOuts.findSuppressed(organizationId, phoneNumbers);
  }
}

/** The delivery processor's OptOutRecorder answered by the inbox: failure 131050 adds the recipient (source `webhook-131050`). */
export class InboxOptOutRecorder implements OptOutRecorder {
  constructor(private readonly ports: OptOutPorts) {}

  async recordStoppedMarketing(organizationId: string, phoneNumber: string): Promise<void> {
    await addOptOut(this.ports, { organizationId, phoneNumber, source: 'webhook-131050' });
  }
}
