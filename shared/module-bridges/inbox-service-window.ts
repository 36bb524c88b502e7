/** The broadcast module's ServiceWindow answered by the inbox: inbound times recorded on v1 conversations, by a number or a BSUID and its pair. */
import type { ServiceWindow } from '../broadcast/ports';
import type { ContactBook } from '../inbox/contact-book';
import type { InboxRepository } from '../inbox/ports';
import { lastInboundAtOf } from '../inbox/service-window';

export class InboxServiceWindow implements ServiceWindow {
  constructor(
    private readonly inbox: InboxRepository,
    /** Meta's pairs: a BSUID's window includes what its number wrote, and the reverse. Absent: the key alone. */
    private readonly contactBook?: Pick<ContactBook, 'pairOf'>,
  ) {}

  lastInboundAt(organizationId: string, senderPhoneNumber: string, customerKey: string): Promise<Date | undefined> {
    return lastInboundAtOf(this.inbox, { organizationId, senderPhoneNumber, customerKey }, this.contactBook);
  }
}
