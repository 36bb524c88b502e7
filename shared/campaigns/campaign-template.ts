/**
 * What a campaign sends with: its sender account and its template as Meta has it now (APPROVED, the
 * campaign's category), with what the template needs from a send. Read at launch (refusing a
 * template that is no longer sendable) and by each expander invocation (checking every member's
 * filled values against the template, as a broadcast checks each recipient's).
 */
import type { SenderAccount, SenderDirectory } from '../broadcast/ports';
import { selectTemplate, sendableRequirementsOf } from '../broadcast/template-checks';
import type { TemplateBroadcastRequest } from '../broadcast/template-broadcast.schema';
import type { TemplateCatalog } from '../broadcast/template-catalog';
import type { UpstreamTemplate } from '../sending/ports';
import type { TemplateRequirements } from '../templates/template-requirements';
import type { Campaign } from './campaign';

export interface CampaignTemplatePorts {
  senders: Pick<SenderDirectory, 'resolveSender'>;
  templates: Pick<TemplateCatalog, 'templatesOf'>;
}

export interface CampaignTemplate {
  sender: SenderAccount;
  template: UpstreamTemplate;
  requirements: TemplateRequirements;
}

/**
 * The campaign's sender and template; throws as a broadcast's accept would (sender not owned,
 * template not found, not APPROVED, of another category, not sendable by broadcast).
 *
 * @example
 * const { sender, template, requirements } = await campaignTemplateOf(ports, campaign);
 */
export async function campaignTemplateOf(
  ports: CampaignTemplatePorts,
  campaign: Pick<Campaign, 'organizationId' | 'fromPhoneNumber' | 'template'>,
): Promise<CampaignTemplate> {
  const sender = await ports.senders.resolveSender(campaign.organizationId, campaign.fromPhoneNumber);
  // The broadcast's template rules, over the fields they read (name, language, category, sender).
  const request = {
    fromPhoneNumber: campaign.fromPhoneNumber,
    templateName: campaign.template.name,
    templateLanguage: campaign.template.language,
    templateType: campaign.template.category,
  } as Pick<TemplateBroadcastRequest, 'fromPhoneNumber' | 'templateName' | 'templateLanguage' | 'templateType'> as TemplateBroadcastRequest;
  const template = selectTemplate(await ports.templates.templatesOf(sender.wabaId, sender.accessToken), request);
  return { sender, template, requirements: sendableRequirementsOf(template) };
}
