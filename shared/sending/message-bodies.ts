/**
 * Meta's request body for a template message to one recipient (broadcasts and bulk sends). It takes
 * the recipient whole, so a per-recipient send field reaches the body through this one function.
 *
 * @example
 * templateMessageBody({ name: 'order_update', language: 'en_US' }, { to: '919800000001', parameters: ['Ana'] });
 */
export function templateMessageBody(template: { name: string; language: string }, recipient: { to: string; parameters: readonly string[] }) {
  const { to, parameters } = recipient;
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    type: 'template',
    template: {
      name: template.name,
      language: { code: template.language },
      ...(parameters.length > 0
        ? { components: [{ type: 'body', parameters: parameters.map((text) => ({ type: 'text', text })) }] }
        : {}),
    },
  };
}
