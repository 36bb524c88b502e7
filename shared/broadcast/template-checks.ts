/**
 * The checks of the template a broadcast names, shared by a broadcast's accept, its dry run and a
 * campaign's creation: it exists for the sender in the language asked, is APPROVED and of the type
 * given, every part of it can be filled by a broadcast, and Meta sends it to the kinds of recipient
 * given.
 */
import { maxPriceOf } from './template-max-price';
import { TemplateMismatchError, TemplateNotApprovedError, TemplateNotFoundError, UserIdNotSupportedError } from './errors';
import type { TemplateBroadcastRequest } from './template-broadcast.schema';
import type { UpstreamTemplate } from '../sending/ports';
import { TemplateNotSendableError } from '../templates/errors';
import { requirementsOf, type TemplateRequirements } from '../templates/template-requirements';

/**
 * Meta refuses (131062) some sends to a business-scoped user id: authentication templates (one-tap,
 * zero-tap, copy code) and templates with a max price. Refused at accept, naming the first such
 * recipient, when any recipient is one (`../shared/meta/usernames-and-bsuid.md` §7).
 */
export function requireSendableToUserIds(template: UpstreamTemplate, recipients: TemplateBroadcastRequest['data']): void {
  const why =
    template.category === 'AUTHENTICATION' ? 'is an AUTHENTICATION template' : maxPriceOf(template) ? 'has a max price (optimization_spec)' : undefined;
  if (why === undefined) return;
  const index = recipients.findIndex((recipient) => recipient.userId !== undefined);
  if (index === -1) return;
  throw new UserIdNotSupportedError(
    `data[${index}].userId: template ${template.name} (${template.language}) ${why}, which Meta does not send to a business-scoped user id (error 131062); send it to the phone number`,
  );
}

/** The template a request names (a broadcast's, or a campaign's: create-campaign.ts), APPROVED and of the type given. */
export function selectTemplate(
  templates: readonly UpstreamTemplate[],
  request: Pick<TemplateBroadcastRequest, 'templateName' | 'templateLanguage' | 'templateType' | 'templateId' | 'fromPhoneNumber'>,
): UpstreamTemplate {
  const named = templates.filter((template) => template.name === request.templateName);
  if (named.length === 0) {
    throw new TemplateNotFoundError(`templateName ${request.templateName} is not a template of sender ${request.fromPhoneNumber}`);
  }
  const template = named.find((candidate) => candidate.language === request.templateLanguage);
  if (!template) {
    throw new TemplateNotFoundError(
      `templateLanguage ${request.templateLanguage} is not available for template ${request.templateName} (available: ${named
        .map((candidate) => candidate.language)
        .join(', ')})`,
    );
  }
  if (template.status !== 'APPROVED') {
    throw new TemplateNotApprovedError(
      `template ${request.templateName} (${request.templateLanguage}) is ${template.status}; only APPROVED templates can be sent`,
    );
  }
  if (template.category !== request.templateType) {
    throw new TemplateMismatchError(
      `templateType ${request.templateType} does not match the category of template ${request.templateName} (${template.category})`,
    );
  }
  if (request.templateId !== undefined && request.templateId !== template.id) {
    throw new TemplateMismatchError(`templateId ${request.templateId} does not identify template ${request.templateName} (${request.templateLanguage})`);
  }
  return template;
}

/** What the template needs from a send (template-requirements.ts); a template with a part no broadcast can fill is refused by name. */
export function sendableRequirementsOf(template: UpstreamTemplate): TemplateRequirements {
  const requirements = requirementsOf(template);
  if (!requirements.sendable) {
    throw new TemplateNotSendableError(`template ${template.name} (${template.language}) cannot be sent by broadcast: ${requirements.unsupported?.join('; ')}`);
  }
  return requirements;
}
