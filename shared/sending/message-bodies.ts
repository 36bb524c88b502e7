/** Meta's request body for a template message with body parameters in order (broadcasts and bulk sends). */
export function templateMessageBody(to: string, template: { name: string; language: string }, parameters: readonly string[]) {
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
