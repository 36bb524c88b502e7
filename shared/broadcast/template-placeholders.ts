import type { UpstreamTemplate } from '../upstream/cloud-api-client';

const PLACEHOLDER = /\{\{\s*(\d+)\s*\}\}/g;

/**
 * How many values a send needs: the highest numbered placeholder of the BODY component.
 * Meta numbers body placeholders {{1}}..{{n}} without gaps, and the broadcast API sends body
 * parameters only (header variables are not part of the contract).
 */
export function bodyPlaceholderCount(template: Pick<UpstreamTemplate, 'components'>): number {
  const body = template.components.find((component) => component.type?.toUpperCase() === 'BODY');
  let highest = 0;
  for (const match of (body?.text ?? '').matchAll(PLACEHOLDER)) highest = Math.max(highest, Number(match[1]));
  return highest;
}

/** Meta's request body for a template message with body parameters in order. */
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
