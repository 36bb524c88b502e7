/** The Meta request body the chunk worker sends to one recipient. */
import type { ChunkRecipient, OutboundMessage } from '../chunk-message';
import { callbackDataOf } from '../../delivery/callback-data';
import { addressOf, templateMessageBody } from '../../sending/message-bodies';

/**
 * The message's content for `recipient`: the template with its parameters, or the prepared
 * free-form body addressed to it. Every send carries its ledger entry as callback data, so Meta's
 * events find it even when the outcome was unknown.
 *
 * @example
 * messageBodyFor(templateChunk, { index: 7, to: '919800000007', parameters: ['Ada'] });
 * // { messaging_product: 'whatsapp', to: '919800000007', type: 'template', ..., biz_opaque_callback_data: 'b1:<job>:<chunk>:7' }
 */
export function messageBodyFor(message: OutboundMessage, recipient: ChunkRecipient): Record<string, unknown> {
  const body = message.kind === 'freeform' ? { ...message.body, ...addressOf(recipient.to) } : templateMessageBody(message.template, recipient);
  return { ...body, biz_opaque_callback_data: callbackDataOf({ kind: 'ledger', jobId: message.jobId, chunkIndex: message.chunkIndex, index: recipient.index }) };
}
