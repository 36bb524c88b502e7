/**
 * What makes a sandbox inbound message a reply, as Meta shapes it (business-messaging-api_v23.0.yaml
 * ButtonMessage, InteractiveMessage, ContextObject): `context: { id }` (the message it answers; the
 * sandbox adds Meta's `from`, the business's display number), a template quick-reply tap
 * `button: { payload, text }` (type `button`), or an interactive message's
 * `interactive: { type: "button_reply", button_reply: { id, title } }` (type `interactive`).
 */
import { SandboxRequestError } from './sandbox-request-error';

export interface InboundReplyParts {
  /** Our message id the user answered (Meta's `context.id`). */
  context?: { id: string };
  button?: { payload: string; text: string };
  buttonReply?: { id: string; title: string };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function textAt(value: Record<string, unknown>, key: string, field: string): string {
  const text = value[key];
  if (typeof text !== 'string' || text === '') throw new SandboxRequestError(400, `${field} must be a non-empty string`);
  return text;
}

/** The reply parts of a `POST /_sandbox/webhooks/inbound` body (400 on a malformed one); `text` is then optional. */
export function inboundReplyPartsOf(input: Record<string, unknown>): InboundReplyParts {
  const parts: InboundReplyParts = {};
  if (input.context !== undefined) {
    if (!isRecord(input.context)) throw new SandboxRequestError(400, 'context must be an object { id }');
    parts.context = { id: textAt(input.context, 'id', 'context.id') };
  }
  if (input.button !== undefined) {
    if (!isRecord(input.button)) throw new SandboxRequestError(400, 'button must be an object { payload, text }');
    parts.button = { payload: textAt(input.button, 'payload', 'button.payload'), text: textAt(input.button, 'text', 'button.text') };
  }
  if (input.interactive !== undefined) {
    const reply = isRecord(input.interactive) ? input.interactive.button_reply : undefined;
    if (!isRecord(input.interactive) || input.interactive.type !== 'button_reply' || !isRecord(reply)) {
      throw new SandboxRequestError(400, 'interactive must be { type: "button_reply", button_reply: { id, title } }');
    }
    parts.buttonReply = { id: textAt(reply, 'id', 'interactive.button_reply.id'), title: textAt(reply, 'title', 'interactive.button_reply.title') };
  }
  if (parts.button && parts.buttonReply) throw new SandboxRequestError(400, 'give button or interactive, not both');
  if ((parts.button || parts.buttonReply) && !parts.context) throw new SandboxRequestError(400, 'a tap needs context.id: the message whose button was tapped');
  return parts;
}

/**
 * The message's type and content fields as Meta posts them: a tap, else a text (with its context either way).
 *
 * @example inboundContentOf({ context: { id: 'wamid.A' }, button: { payload: 'YES', text: 'Yes' } }, undefined, '15550000000')
 * // { context: { from: '15550000000', id: 'wamid.A' }, type: 'button', button: { payload: 'YES', text: 'Yes' } }
 */
export function inboundContentOf(parts: InboundReplyParts, text: string | undefined, businessNumber: string): Record<string, unknown> {
  const context = parts.context ? { context: { from: businessNumber, id: parts.context.id } } : {};
  if (parts.button) return { ...context, type: 'button', button: { ...parts.button } };
  if (parts.buttonReply) return { ...context, type: 'interactive', interactive: { type: 'button_reply', button_reply: { ...parts.buttonReply } } };
  return { ...context, type: 'text', text: { body: text ?? '' } };
}
