/** The Meta request body the chunk worker sends to one recipient. */
import type { ChunkRecipient, OutboundMessage } from '../chunk-message';
import { callbackDataOf } from '../../delivery/callback-data';
import { addressOf, templateMessageBody } from '../../sending/message-bodies';
import { hasTrackedButtons, withTrackedTokens } from '../../clicks/tracked-buttons';

/**
 * Whether a chunk's sends carry tracked links (its template's or any recipient's own buttons): the
 * worker then reads the link key before the first send (once per container).
 */
export const needsLinkKey = (message: OutboundMessage): boolean =>
  message.kind === 'template-chunk' &&
  (hasTrackedButtons(message.template.content) || message.recipients.some((recipient) => hasTrackedButtons(recipient.content)));

/**
 * The message's content for `recipient`: the template with its parameters, or the prepared
 * free-form body addressed to it. Every send carries its ledger entry as callback data, so Meta's
 * events find it even when the outcome was unknown. A tracked link's button carries the
 * recipient's token (shared/clicks/tracked-buttons.ts), made from `linkKey`: the same on a retry.
 *
 * @example
 * messageBodyFor(templateChunk, { index: 7, to: '919800000007', parameters: ['Ada'] });
 * // { messaging_product: 'whatsapp', to: '919800000007', type: 'template', ..., biz_opaque_callback_data: 'b1:<job>:<chunk>:7' }
 */
export function messageBodyFor(message: OutboundMessage, recipient: ChunkRecipient, linkKey?: Buffer): Record<string, unknown> {
  const body = message.kind === 'freeform' ? { ...message.body, ...addressOf(recipient.to) } : templateBodyFor(message, recipient, linkKey);
  return {
    ...body,
    biz_opaque_callback_data: callbackDataOf({ kind: 'ledger', jobId: message.jobId, chunkIndex: message.chunkIndex, index: recipient.index }),
  };
}

function templateBodyFor(message: Extract<OutboundMessage, { kind: 'template-chunk' }>, recipient: ChunkRecipient, linkKey: Buffer | undefined) {
  if (!linkKey) return templateMessageBody(message.template, recipient);
  const where = { jobId: message.jobId, chunkIndex: message.chunkIndex, index: recipient.index };
  const tokens = withTrackedTokens(linkKey, message.template.content, recipient.content, where);
  return templateMessageBody({ ...message.template, content: tokens.template }, { ...recipient, content: tokens.recipient });
}
