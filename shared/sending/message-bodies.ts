import { effectiveContent, type TemplateContent, type TemplateParameters } from '../templates/template-content.schema';
import { templateComponents, type VariableNames } from '../templates/template-components';
import { recipientOfKey } from '../recipients/recipient';

/**
 * The field of Meta's send body that addresses `key` (recipient.ts `recipientKeyOf`): `to` for a
 * phone number, `recipient` for a business-scoped user id, which Meta does not take in `to`
 * (`../shared/meta/usernames-and-bsuid.md` §6). Every send body addresses its recipient through this.
 *
 * @example
 * addressOf('447700900123'); // { to: '447700900123' }
 * addressOf('US.13491208655302741918'); // { recipient: 'US.13491208655302741918' }
 */
export function addressOf(key: string): { to: string } | { recipient: string } {
  const recipient = recipientOfKey(key);
  switch (recipient.kind) {
    case 'phone':
      return { to: recipient.phoneNumber };
    case 'bsuid':
      return { recipient: recipient.userId };
  }
}

/** The template a send names, with the content every recipient shares (a broadcast's header, buttons, …). */
export interface TemplateToSend {
  name: string;
  language: string;
  content?: TemplateContent;
  variableNames?: VariableNames;
}

/** One recipient of a template send: its key (a number or a business-scoped user id), its body values and its own content (which wins over the template's). */
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
 * templateMessageBody({ name: 'order_update', language: 'en_US' }, { to: '919800000001', parameters: ['Ana'] }); // { …, to: '919800000001', … }
 * templateMessageBody({ name: 'order_update', language: 'en_US' }, { to: 'US.1349', parameters: ['Ana'] }); // { …, recipient: 'US.1349', … }
 */
export function templateMessageBody(template: TemplateToSend, recipient: TemplateRecipient) {
  const components = templateComponents(recipient.parameters, effectiveContent(template.content, recipient.content), template.variableNames);
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    ...addressOf(recipient.to),
    type: 'template',
    template: {
      name: template.name,
      language: { code: template.language },
      ...(components.length > 0 ? { components } : {}),
    },
  };
}
