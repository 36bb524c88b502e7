import { freeformRecipientKeyOf, type FreeformMessageRequest } from './freeform-message.schema';
import { addressOf } from '../sending/message-bodies';

/** Meta's request body for one free-form message (messaging_product and recipient added: `to` for a number, `recipient` for a business-scoped user id). */
export function freeformMessageBody(request: FreeformMessageRequest): Record<string, unknown> {
  const envelope = { messaging_product: 'whatsapp', recipient_type: 'individual', ...addressOf(freeformRecipientKeyOf(request)), type: request.type };
  switch (request.type) {
    case 'text':
      return { ...envelope, text: { preview_url: false, body: request.text } };
    case 'image':
      return { ...envelope, image: { link: request.url, ...(request.caption ? { caption: request.caption } : {}) } };
    case 'sticker':
      return { ...envelope, sticker: { link: request.url } };
    case 'document':
      return {
        ...envelope,
        document: { link: request.url, ...(request.name ? { filename: request.name } : {}), ...(request.caption ? { caption: request.caption } : {}) },
      };
    case 'audio':
      return { ...envelope, audio: { link: request.url } };
    case 'video':
      return { ...envelope, video: { link: request.url, ...(request.caption ? { caption: request.caption } : {}) } };
    case 'location':
      return {
        ...envelope,
        location: {
          latitude: request.latitude,
          longitude: request.longitude,
          ...(request.name ? { name: request.name } : {}),
          ...(request.address ? { address: request.address } : {}),
        },
      };
    case 'interactive':
      return { ...envelope, interactive: request.interactive };
  }
}
