/**
 * The earlier send-single and send-bulk operations: a template to up to 1,000 recipients,
 * charged per message from the organization's wallet at the destination country's price.
 *
 * Invalid recipients are partial failures: counted in `failed_contacts`, not charged, and
 * stored in the job's ledger with their failure_reason_code. The rest go through the same queue,
 * worker and ledger as template broadcasts.
 */
import { usMarketingGuarded, US_MARKETING_PAUSED } from './us-marketing-guard';
import type { ChunkRecipient } from './chunk-message';
import {
  BroadcastNameTakenError,
  BusinessAccountIncompleteError,
  NoBusinessAccountError,
  SenderNotOwnedError,
  InvalidPhoneNumberFormatError,
  UserIdNotSupportedError,
  UsMarketingPausedError,
  EarlierTemplateLanguageError,
  EarlierTemplateMissingError,
  NoSubscriptionError,
  PricingNotAvailableError,
  RecipientLimitExceededError,
  TemplateParameterCountError,
  UserNotSignedUpError,
} from './errors';
import { boundSenderOf, requireOperationInScope, type ScopedCaller } from './key-scope';
import { newJob, newJobId, recordAndFanOut } from './job-fan-out';
import { releaseReach, reserveReach, type MessagingLimitDependencies, type ReachReservation } from './messaging-limit';
import type {
  BillingPort,
  BroadcastNameRegistry,
  ChunkProgressStore,
  Clock,
  JobControlStore,
  JobStore,
  OutboundQueue,
  RecipientLedger,
  SenderAccount,
  SenderDirectory,
  SuppressionList,
} from './ports';
import { bodyPlaceholderCount } from './template-placeholders';
import type { TemplateCatalog } from './template-catalog';
import type { UpstreamTemplate } from '../sending/ports';
import type { IdGenerator } from '../ports/id-generator';
import { listedOfEarlier, type EarlierRecipient } from './earlier-recipients';
import { failuresOf, refuseOptedOut, triageRecipients, type EarlierFailure, type EarlierFailureView, type Triage } from './earlier-triage';

export const EARLIER_RECIPIENT_LIMIT = 1000;

/** With the messaging limit's ports (messaging-limit.ts). */
export interface EarlierSendDependencies extends MessagingLimitDependencies {
  senders: SenderDirectory;
  templates: TemplateCatalog;
  /** JobControlStore: a job whose queueing failed part-way is cancelled (job-fan-out.ts). */
  broadcasts: JobStore & JobControlStore & RecipientLedger & ChunkProgressStore;
  queue: OutboundQueue;
  billing: BillingPort;
  broadcastNames: BroadcastNameRegistry;
  /** Opt-outs: their recipients are refused (FAILED OPTED_OUT), not charged, counted in failed_contacts. */
  optOuts: SuppressionList;
  clock: Clock;
  ids: IdGenerator;
}

export interface EarlierSendInput {
  mode: 'single' | 'bulk';
  templateName: string;
  templateLanguage: string;
  recipients: readonly EarlierRecipient[];
  globalTemplateParams?: string[];
  broadcastName?: string;
}

/** The contract's cost summary; money in the currency's units. */
export interface CostSummary {
  total_contacts: number;
  failed_contacts: number;
  estimated_cost: number;
  oldBalance: number;
  newEstimatedBalance: number;
  /** Each refused recipient, in request order, when any was (earlier-triage.ts `failuresOf`): an addition to the contract's summary. */
  failures?: EarlierFailureView[];
}

const toUnits = (micros: number): number => Math.round(micros) / 1_000_000;

/** Earlier keys were generated per sender; an unbound key sends from the organization's first sender. */
async function senderFor(dependencies: EarlierSendDependencies, caller: ScopedCaller): Promise<SenderAccount> {
  try {
    const phoneNumber = boundSenderOf(caller) ?? (await dependencies.senders.listSenders(caller.organizationId)).map((sender) => sender.phoneNumber).sort()[0];
    if (!phoneNumber) throw new UserNotSignedUpError();
    return await dependencies.senders.resolveSender(caller.organizationId, phoneNumber);
  } catch (error) {
    const senderUnusable = error instanceof SenderNotOwnedError || error instanceof BusinessAccountIncompleteError || error instanceof NoBusinessAccountError;
    if (senderUnusable) throw new UserNotSignedUpError();
    throw error;
  }
}

function approvedTemplate(templates: readonly UpstreamTemplate[], name: string, language: string): UpstreamTemplate {
  const approved = templates.filter((template) => template.name === name && template.status === 'APPROVED');
  if (approved.length === 0) throw new EarlierTemplateMissingError();
  const template = approved.find((candidate) => candidate.language === language);
  if (!template) throw new EarlierTemplateLanguageError();
  return template;
}

/** A single send has no partial success: its one failure is the answer. */
function rejectSingle(failure: EarlierFailure, placeholders: number, templateName: string): never {
  switch (failure.reason) {
    case 'UNSUPPORTED_COUNTRY_CODE':
      throw new PricingNotAvailableError();
    case '131062':
      throw new UserIdNotSupportedError(
        `userId: template ${templateName} is an AUTHENTICATION template, which Meta does not send to a business-scoped user id (error 131062); send it to the phone number`,
      );
    case US_MARKETING_PAUSED:
      throw new UsMarketingPausedError(
        `${failure.to.includes('.') ? 'userId' : 'countryCode'} must not be a US recipient for MARKETING template ${templateName}: Meta has paused marketing templates to US numbers since 2025-04-01 (they fail with 131049)`,
      );
    case '131014':
      throw new TemplateParameterCountError(`templateParams must have exactly ${placeholders} values for template ${templateName}`);
    default:
      throw new InvalidPhoneNumberFormatError(failure.issue);
  }
}

/** One accepted request on its way to being recorded: what the charge and the job are made of. */
interface EarlierAccept {
  organizationId: string;
  jobId: string;
  sender: SenderAccount;
  template: UpstreamTemplate;
  triage: Triage;
  /** A bulk send's campaign name (unique per organization); single sends carry none. */
  campaignName?: string;
  costMicros: number;
  reservation?: ReachReservation;
}

type Balances = { oldBalanceMicros: number; newBalanceMicros: number };

/**
 * Claims the campaign name and charges the wallet. Nothing is recorded or queued yet: a failure
 * gives back the name and the messaging-limit reservation.
 */
async function claimNameAndCharge(dependencies: EarlierSendDependencies, accept: EarlierAccept): Promise<Balances> {
  const { billing, broadcastNames } = dependencies;
  const { organizationId, campaignName, jobId, costMicros } = accept;
  let nameClaimed = false;
  try {
    if (campaignName) {
      nameClaimed = await broadcastNames.claim(organizationId, campaignName, jobId);
      if (!nameClaimed) throw new BroadcastNameTakenError();
    }
    return costMicros > 0
      ? await billing.debit(organizationId, costMicros)
      : await billing.balanceOf(organizationId).then((balance) => ({ oldBalanceMicros: balance, newBalanceMicros: balance }));
  } catch (error) {
    if (nameClaimed) await broadcastNames.release(organizationId, campaignName!, jobId).catch(() => undefined);
    await releaseReach(dependencies, accept.reservation).catch(() => undefined);
    throw error;
  }
}

/** Records and queues the job (job-fan-out.ts, which gives the reservation back when nothing was queued). */
async function recordEarlierJob(
  dependencies: EarlierSendDependencies,
  input: EarlierSendInput,
  accept: EarlierAccept,
  createdByCredentialId: string | undefined,
): Promise<void> {
  const { billing, broadcastNames, clock } = dependencies;
  const { organizationId, jobId, sender, template, triage, campaignName, costMicros } = accept;
  try {
    const now = clock.now();
    const job = newJob(
      {
        kind: 'earlier',
        mode: input.mode,
        ...(campaignName ? { broadcastName: campaignName } : {}),
        template: { name: template.name, language: template.language, category: template.category, id: template.id },
      },
      { jobId, organizationId, sender, totalRecipients: input.recipients.length, exposed: false, now, createdByCredentialId },
    );
    await recordAndFanOut(dependencies, {
      job,
      recipients: triage.accepted.map(({ index, to, parameters }): ChunkRecipient => ({ index, to, parameters })),
      listed: input.recipients.map(listedOfEarlier),
      refused: triage.failed.map((failure) => ({
        index: failure.index,
        to: failure.to,
        status: 'FAILED',
        failureReasonCode: failure.reason,
        attempts: 0,
        updatedAt: now.toISOString(),
      })),
      reservation: accept.reservation,
    });
  } catch (error) {
    // The request failed: give the money and the name back rather than keep them for it.
    if (costMicros > 0) await billing.credit(organizationId, costMicros).catch(() => undefined);
    if (campaignName) await broadcastNames.release(organizationId, campaignName, jobId).catch(() => undefined);
    throw error;
  }
}

export async function sendEarlierTemplate(dependencies: EarlierSendDependencies, caller: ScopedCaller, input: EarlierSendInput): Promise<CostSummary> {
  requireOperationInScope(caller, 'send-earlier');
  const { billing, clock } = dependencies;
  const organizationId = caller.organizationId;
  if (!(await billing.hasActiveSubscription(organizationId, clock.now()))) throw new NoSubscriptionError();
  if (input.recipients.length > EARLIER_RECIPIENT_LIMIT) throw new RecipientLimitExceededError();

  const sender = await senderFor(dependencies, caller);
  const template = approvedTemplate(await dependencies.templates.templatesOf(sender.wabaId, sender.accessToken), input.templateName, input.templateLanguage);
  const placeholders = bodyPlaceholderCount(template);
  const triage = await triageRecipients(billing, input, template.category, placeholders, usMarketingGuarded(template.category, sender));
  if (input.mode === 'single' && triage.failed[0]) rejectSingle(triage.failed[0], placeholders, template.name);
  await refuseOptedOut(dependencies.optOuts, organizationId, triage);
  const reservation = await reserveReach(
    dependencies,
    sender,
    triage.accepted.map(({ to }) => to),
    clock.now(),
  );

  const name = input.broadcastName?.trim();
  const accept: EarlierAccept = {
    organizationId,
    jobId: newJobId(dependencies.ids, 'earlier'),
    sender,
    template,
    triage,
    ...(input.mode === 'bulk' && name ? { campaignName: name } : {}),
    costMicros: triage.accepted.reduce((total, recipient) => total + recipient.priceMicros, 0),
    reservation,
  };
  const balances = await claimNameAndCharge(dependencies, accept);
  await recordEarlierJob(dependencies, input, accept, caller.credentialId);

  return {
    total_contacts: input.recipients.length,
    failed_contacts: triage.failed.length,
    estimated_cost: toUnits(accept.costMicros),
    oldBalance: toUnits(balances.oldBalanceMicros),
    newEstimatedBalance: toUnits(balances.newBalanceMicros),
    ...(triage.failed.length === 0 ? {} : { failures: failuresOf(triage.failed, input.mode) }),
  };
}
