/**
 * The delivery processor's InboundMessageSink answered by the inbox: a customer's message to one of
 * the organization's numbers becomes its v1 contact and conversation, and opens the 24-hour window
 * (shared/inbox/record-inbound-message.ts). Personal data (numbers, names, texts) is never logged.
 */
import type { InboundMessage, InboundMessageSink } from '../delivery/ports';
import { recordInboundMessage, type RecordInboundPorts } from '../inbox/record-inbound-message';

/** The organization's sender number (digits) of an upstream phone number id, from tenancy. */
export interface SenderNumberOfId {
  senderPhoneNumberOf(organizationId: string, phoneNumberId: string): Promise<string | undefined>;
}

export class InboxInboundMessageSink implements InboundMessageSink {
  constructor(
    private readonly ports: RecordInboundPorts,
    private readonly numbers: SenderNumberOfId,
  ) {}

  async recordInbound(organizationId: string, message: InboundMessage): Promise<void> {
    // The conversation's sender is the number as the organization registered it; the webhook's display
    // number is the fallback (same digits, but formatted by Meta).
    const senderPhoneNumber = (await this.numbers.senderPhoneNumberOf(organizationId, message.phoneNumberId)) ?? message.businessPhoneNumber;
    await recordInboundMessage(this.ports, {
      organizationId,
      senderPhoneNumber,
      customerPhoneNumber: message.from,
      ...(message.profileName !== undefined ? { profileName: message.profileName } : {}),
      sentAt: message.timestamp,
    });
  }
}
