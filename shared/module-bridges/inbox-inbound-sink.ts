/**
 * The delivery processor's InboundMessageSink answered by the inbox: a customer's message to one of
 * the organization's numbers becomes its v1 contact and conversation, and opens the 24-hour window
 * (shared/inbox/record-inbound-message.ts). Personal data (numbers, names, texts) is never logged.
 */
import type { InboundMessage, InboundMessageSink } from '../delivery/ports';
import { applyIdentityChange } from '../inbox/identity-change';
import { applyOptOutKeyword, type OptOutKeywords, type OptOutPorts } from '../inbox/opt-outs';
import { recordInboundMessage, type RecordInboundPorts } from '../inbox/record-inbound-message';

/** The organization's sender number (digits) of an upstream phone number id, from tenancy. */
export interface SenderNumberOfId {
  senderPhoneNumberOf(organizationId: string, phoneNumberId: string): Promise<string | undefined>;
}

export class InboxInboundMessageSink implements InboundMessageSink {
  constructor(
    private readonly ports: RecordInboundPorts,
    private readonly numbers: SenderNumberOfId,
    /** Opt-out and start keywords (docs/ORGANIZATIONS-AND-V1.md "Opt-outs"); absent: texts are not read. */
    private readonly optOuts?: { ports: OptOutPorts; keywords: OptOutKeywords },
  ) {}

  async recordInbound(organizationId: string, message: InboundMessage, knownSenderPhoneNumber?: string): Promise<void> {
    // A change of number is Meta's notice, not the user writing: it re-keys the contact and carries
    // its opt-out (shared/inbox/identity-change.ts) and opens no window.
    if (message.userIdChange) {
      await this.applyIdentityChange(organizationId, message.userIdChange);
      return;
    }
    // The conversation's sender is the number as the organization registered it (given by the owner
    // lookup, else read); the webhook's display number is the fallback (same digits, formatted by Meta).
    const senderPhoneNumber =
      knownSenderPhoneNumber ?? (await this.numbers.senderPhoneNumberOf(organizationId, message.phoneNumberId)) ?? message.businessPhoneNumber;
    const sentAt = message.timestamp;
    await recordInboundMessage(this.ports, {
      organizationId,
      senderPhoneNumber,
      ...(message.from !== undefined ? { customerPhoneNumber: message.from } : {}),
      ...(message.fromUserId !== undefined ? { customerUserId: message.fromUserId } : {}),
      ...(message.profileName !== undefined ? { profileName: message.profileName } : {}),
      ...(message.username !== undefined ? { username: message.username } : {}),
      sentAt,
    });
    // Every keyword message is applied with Meta's time: the opt-out record keeps the time of the
    // last keyword and takes only a newer one (shared/inbox/opt-out-record.ts), so a redelivery or an
    // older STOP arriving after a START changes nothing, across all of the organization's numbers.
    // Under each identity the message names (its BSUID, its number); each also follows its pair.
    if (this.optOuts) {
      for (const key of [message.fromUserId, message.from]) {
        if (key !== undefined)
          await applyOptOutKeyword(this.optOuts.ports, this.optOuts.keywords, { organizationId, phoneNumber: key, text: message.text, sentAt });
      }
    }
  }

  private async applyIdentityChange(organizationId: string, change: NonNullable<InboundMessage['userIdChange']>): Promise<void> {
    const { userId, phoneNumber, parentUserId, previousUserId, previousParentUserId, previousPhoneNumber } = change;
    const defined = <T extends Record<string, string | undefined>>(ids: T) =>
      Object.fromEntries(Object.entries(ids).filter(([, id]) => id !== undefined)) as { [K in keyof T]?: string };
    await applyIdentityChange(
      {
        inbox: this.ports.inbox,
        clock: this.ports.clock,
        ...(this.optOuts ? { optOuts: this.optOuts.ports.optOuts } : {}),
        ...(this.ports.contactBook ? { contactBook: this.ports.contactBook } : {}),
      },
      {
        organizationId,
        previous: defined({ userId: previousUserId, parentUserId: previousParentUserId, phoneNumber: previousPhoneNumber }),
        current: { userId, ...defined({ phoneNumber, parentUserId }) },
      },
    );
  }
}
