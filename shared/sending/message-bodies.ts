import { effectiveContent, type TemplateContent, type TemplateParameters } from '../templates/template-content.schema';
import { templateComponents, type VariableNames } from '../templates/template-components';

/** The template a send names, with the content every recipient shares (a broadcast's header, buttons, …). */
export interface TemplateToSend {
  name: string;
  language: string;
  content?: TemplateContent;
  variableNames?: VariableNames;
}

/** One recipient of a template send: its body values and its own content (which wins over the template's). */
export interface TemplateRecipient {
  to: string;
  parameters: TemplateParameters;
  content?: TemplateContent;
}

/**
 * Meta's request body for a template message to one recipient (broadcasts and bulk sends). It takes
 * the recipient whole, so a per-recipient send field reaches the body through this one function.
 *
 * @example
 * templateMessageBody({ name: 'order_update', language: 'en_US' }, { to: '919800000001', parameters: ['Ana'] });
 */
export function templateMessageBody(template: TemplateToSend, recipient: TemplateRecipient) {
  const components = templateComponents(recipient.parameters, effectiveContent(template.content, recipient.content), template.variableNames);
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: recipient.to,
    type: 'template',
    template: {
      name: template.name,
      language: { code: template.language },
      ...(components.length > 0 ? { components } : {}),
    },
  };
}
