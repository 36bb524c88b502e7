/**
 * Creates a campaign as a DRAFT (docs/CAMPAIGNS.md "Creating a campaign"): the sender must be the
 * organization's number, the template must exist, be APPROVED and of the type given (the broadcast's
 * checks, send-template-broadcast.ts), the values must fit it with each reference replaced by its
 * fallback or a sample (the broadcast's content checks, shared/templates/content-check.ts), every
 * audience named must be the organization's (`contacts` always is), and `scheduledAt` must be
 * within the broadcast's window. Nothing is sent until the launch.
 */
import { sendRulesOf, withSendRules } from '../send-rules/send-rules.schema';
import type { IdGenerator } from '../ports/id-generator';
import type { Clock } from '../ports/clock';
import type { MemberSource } from '../audiences/ports';
import { CONTACTS_AUDIENCE_ID } from '../audiences/audience';
import { requireOwnedMedia } from '../broadcast/broadcast-content';
import { TemplateParameterCountError } from '../broadcast/errors';
import { requireOperationInScope, requireSenderInScope, type ScopedCaller } from '../broadcast/key-scope';
import type { SenderDirectory, UploadedMedia } from '../broadcast/ports';
import { scheduledTimeOf } from '../broadcast/send-template-broadcast';
import { selectTemplate, sendableRequirementsOf } from '../broadcast/template-checks';
import type { TemplateCatalog } from '../broadcast/template-catalog';
import { checkNamedParameters, checkTemplateContent } from '../templates/content-check';
import type { TemplateContent, TemplateParameters } from '../templates/template-content.schema';
import type { TemplateRequirements } from '../templates/template-requirements';
import { DEFAULT_ATTRIBUTION_WINDOW_HOURS } from '../outcomes/outcome-facts';
import { CAMPAIGN_ID_PREFIX, type Campaign } from './campaign';
import type { AudienceSpec } from './audience-filter';
import { valuesForCheck, type CampaignRequest } from './campaign-request.schema';
import type { CampaignValues } from './campaign-values';
import { CampaignAudienceNotFoundError } from './errors';
import type { CampaignStore } from './ports';

export interface CreateCampaignDependencies {
  senders: SenderDirectory;
  templates: TemplateCatalog;
  /** Which audiences the organization has (saved ones; `contacts` always). */
  audiences: Pick<MemberSource, 'describeAudience'>;
  campaigns: Pick<CampaignStore, 'createCampaign'>;
  /** A header's `mediaId` must be one the organization uploaded through /upstream. */
  media: UploadedMedia;
  clock: Clock;
  ids: IdGenerator;
  /** The broadcast's minimum lead of `scheduledAt` (BROADCAST_SCHEDULE_MIN_LEAD_SECONDS). */
  scheduling: { minLeadSeconds: number };
}

export interface CreatedCampaign {
  campaignId: string;
  name: string;
  state: 'DRAFT';
  createdAt: string;
}

/** A reference without a fallback in an offer's expiry stands for a day after the send at create. */
const OFFER_SAMPLE_LEAD_MS = 86_400_000;

/**
 * The values, with each reference replaced, against the template: the body (count or names), then
 * the header, buttons, carousel and offer, naming the field as the request names it.
 *
 * @example
 * checkValuesFitTemplate(requirementsOf(template), 'template spring_sale', { templateParams: ['there'] }, now); // throws when it needs 2
 */
export function checkValuesFitTemplate(requirements: TemplateRequirements, templateLabel: string, values: CampaignValues, sendsAt: Date): TemplateContent {
  const { templateParams, ...rest } = valuesForCheck(values, new Date(sendsAt.getTime() + OFFER_SAMPLE_LEAD_MS).toISOString());
  const parameters = templateParams as TemplateParameters | undefined;
  const { body } = requirements;
  checkNamedParameters(body, parameters, 'templateParams', templateLabel);
  if (body.format === 'POSITIONAL') {
    const count = (parameters as string[] | undefined)?.length ?? 0;
    if (count !== body.count)
      throw new TemplateParameterCountError(`templateParams has ${count} values; ${templateLabel} needs exactly ${body.count} ({{1}}..{{${body.count}}})`);
  }
  const content = rest as TemplateContent;
  checkTemplateContent(requirements, content, { broadcast: content, ownPrefix: '', templateLabel }, sendsAt);
  return content;
}

/** Throws CampaignAudienceNotFoundError for the first audience (included, then excluded) the organization does not have. */
async function requireAudiences(audiences: CreateCampaignDependencies['audiences'], organizationId: string, spec: AudienceSpec): Promise<void> {
  const named = [
    ...spec.audienceIds.map((audienceId, index) => ({ audienceId, field: `audience.audienceIds[${index}]` })),
    ...(spec.excludeAudienceIds ?? []).map((audienceId, index) => ({ audienceId, field: `audience.excludeAudienceIds[${index}]` })),
  ].filter(({ audienceId }) => audienceId !== CONTACTS_AUDIENCE_ID);
  const found = await Promise.all(named.map(({ audienceId }) => audiences.describeAudience(organizationId, audienceId)));
  const missing = named.find((_, index) => found[index] === undefined);
  if (missing) throw new CampaignAudienceNotFoundError(missing.field, missing.audienceId);
}

/**
 * Checks a campaign request and stores it as a DRAFT.
 *
 * @example
 * await createCampaign(dependencies, caller, parseRequest(campaignRequestSchema, body));
 * // { campaignId: 'cmp_01J…', name: 'Spring sale', state: 'DRAFT', createdAt: '2026-12-01T10:00:00.000Z' }
 */
export async function createCampaign(dependencies: CreateCampaignDependencies, caller: ScopedCaller, request: CampaignRequest): Promise<CreatedCampaign> {
  requireOperationInScope(caller, 'manage-campaigns');
  requireSenderInScope(caller, request.fromPhoneNumber);
  const now = dependencies.clock.now();
  const scheduledAt = request.scheduledAt === undefined ? undefined : scheduledTimeOf(request.scheduledAt, now, dependencies.scheduling);
  const audiencesChecked = requireAudiences(dependencies.audiences, caller.organizationId, request.audience);
  // Awaited after the sender's and the template's checks, so their errors come first.
  audiencesChecked.catch(() => undefined);
  const sender = await dependencies.senders.resolveSender(caller.organizationId, request.fromPhoneNumber);
  const template = selectTemplate(await dependencies.templates.templatesOf(sender.wabaId, sender.accessToken), request);
  const requirements = sendableRequirementsOf(template);
  const content = checkValuesFitTemplate(requirements, `template ${template.name}`, request.values, scheduledAt ?? now);
  await requireOwnedMedia(dependencies.media, caller.organizationId, content, [], now);
  await audiencesChecked;

  const createdAt = now.toISOString();
  const campaign: Campaign = {
    campaignId: dependencies.ids.newId(CAMPAIGN_ID_PREFIX),
    organizationId: caller.organizationId,
    name: request.name,
    fromPhoneNumber: request.fromPhoneNumber,
    template: { name: template.name, language: template.language, category: request.templateType },
    audience: request.audience,
    values: request.values,
    ...(request.scheduledAt === undefined ? {} : { scheduledAt: request.scheduledAt }),
    ...(request.holdout === undefined ? {} : { holdout: request.holdout }),
    attributionWindowHours: request.attributionWindowHours ?? DEFAULT_ATTRIBUTION_WINDOW_HOURS,
    ...withSendRules(sendRulesOf(request)),
    createdAt,
    updatedAt: createdAt,
    ...(caller.credentialId === undefined ? {} : { createdByCredentialId: caller.credentialId }),
  };
  await dependencies.campaigns.createCampaign(campaign);
  return { campaignId: campaign.campaignId, name: campaign.name, state: 'DRAFT', createdAt };
}
