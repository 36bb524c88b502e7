/**
 * Every message the sandbox accepted, in order, indexed by phone number id and recipient so
 * that recording stays O(1) and filtered listings do not scan the whole log.
 */
import type { AcceptedMessage } from './sandbox-types';

export interface AcceptedMessageFilter {
  phoneNumberId?: string;
  recipient?: string;
}

function append(index: Map<string, AcceptedMessage[]>, key: string, message: AcceptedMessage): void {
  const list = index.get(key);
  if (list === undefined) index.set(key, [message]);
  else list.push(message);
}

export class AcceptedMessageLog {
  private messages: AcceptedMessage[] = [];
  private readonly byPhoneNumberId = new Map<string, AcceptedMessage[]>();
  private readonly byRecipient = new Map<string, AcceptedMessage[]>();

  record(message: AcceptedMessage): void {
    this.messages.push(message);
    append(this.byPhoneNumberId, message.phoneNumberId, message);
    append(this.byRecipient, message.recipient, message);
  }

  /** A copy, so callers can keep it while the sandbox goes on accepting messages. */
  list(filter: AcceptedMessageFilter = {}): AcceptedMessage[] {
    const { phoneNumberId, recipient } = filter;
    if (phoneNumberId === undefined && recipient === undefined) return this.messages.slice();
    const byPhone = phoneNumberId === undefined ? undefined : (this.byPhoneNumberId.get(phoneNumberId) ?? []);
    const byRecipient = recipient === undefined ? undefined : (this.byRecipient.get(recipient) ?? []);
    if (byPhone === undefined) return (byRecipient ?? []).slice();
    if (byRecipient === undefined) return byPhone.slice();
    // Both filters: walk the shorter list; both are in acceptance order already.
    return byPhone.length <= byRecipient.length
      ? byPhone.filter((message) => message.recipient === recipient)
      : byRecipient.filter((message) => message.phoneNumberId === phoneNumberId);
  }

  get size(): number {
    return this.messages.length;
  }

  clear(): void {
    this.messages = [];
    this.byPhoneNumberId.clear();
    this.byRecipient.clear();
  }
}
