/** The broadcast module's ServiceWindow answered by the inbox: inbound times recorded on v1 conversations. */
import type { ServiceWindow } from '../broadcast/ports';
import type { InboxRepository } from '../inbox/ports';
import { lastInboundAtOf } from '../inbox/service-window';

export class InboxServiceWindow implements ServiceWindow {
  constructor(private readonly inbox: InboxRepository) {}

  lastInboundAt(organizationId: string, senderPhoneNumber: string, customerPhoneNumber: string): Promise<Date | undefined> {
    return lastInboundAtOf(this.inbox, { organizationId, senderPhoneNumber, customerPhoneNumber });
  }
}
