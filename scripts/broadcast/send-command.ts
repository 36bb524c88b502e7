/**
 * `npm run broadcast -- send`: validate the whole CSV and the options with the service's own rules
 * (no request is made before both pass), look the template up (its category is the request's
 * templateType; its `parameters` say which columns and options it takes and needs:
 * template-fit.ts), send the parts with their derived Idempotency-Keys (nothing is sent before the
 * whole file fits), then follow the jobs with a progress bar and print the summary.
 */
import { basename, extname } from 'node:path';
import { BroadcastApiError, type AcceptedBroadcast, type BroadcastClient, type BroadcastRequest, type JobStatus } from '../../client/broadcast-client';
import { noCommonValues, type CommonValues } from './common-values';
import { AlreadySentError, RecipientsFileError, TemplateChoiceError } from './errors';
import { formatSummary } from './job-progress';
import { followWithBar } from './follow-with-bar';
import type { CliOutput } from './cli-output';
import { checkSendOptions } from './option-rules';
import { parseRecipientsCsv } from './recipients-csv';
import { asClientRequest, planRequests, resendKeyFor, type PlannedRequest } from './send-plan';
import { fitTemplate, fitWithoutParameters } from './template-fit';
import { templateParametersOf } from './template-parameters';

export interface SendCommandOptions {
  csvPath: string;
  fileContent: Buffer;
  fromPhoneNumber: string;
  templateName: string;
  templateLanguage: string;
  scheduledAt?: string;
  /** Default: the CSV's file name without extension. */
  broadcastName?: string;
  /** false: print the jobs and return without following them. */
  wait: boolean;
  pollIntervalMs: number;
  /** Send parts the service reports as sent before (past the key's window) again, as new jobs. */
  resend?: boolean;
  /** Values common to every row (`--header-link`, `--button0`, `--param-<name>`, …); default none. */
  common?: CommonValues;
}

export type { CliOutput } from './cli-output';

export interface SendOutcome {
  accepted: Array<AcceptedBroadcast & { part: number; recipients: number }>;
  jobs: JobStatus[];
}

/** The request's templateType values (the document's enum, from the service's schema). */
const broadcastCategories: ReadonlyArray<BroadcastRequest['templateType']> = ['MARKETING', 'UTILITY'];
const isBroadcastCategory = (category: string): category is BroadcastRequest['templateType'] => (broadcastCategories as readonly string[]).includes(category);

/** How many problems are printed; the rest are counted. */
const problemsShown = 50;

export async function sendCommand(client: BroadcastClient, options: SendCommandOptions, output: CliOutput): Promise<SendOutcome> {
  const file = parseRecipientsCsv(options.fileContent);
  const broadcastName = options.broadcastName ?? basename(options.csvPath, extname(options.csvPath));
  const requestFields = {
    broadcastName,
    fromPhoneNumber: options.fromPhoneNumber,
    templateName: options.templateName,
    templateLanguage: options.templateLanguage,
    ...(options.scheduledAt ? { scheduledAt: options.scheduledAt } : {}),
  };
  checkSendOptions(requestFields, file.recipients.length);

  const templates = await client.listTemplates(options.fromPhoneNumber);
  const template = templates.find((candidate) => candidate.name === options.templateName && candidate.language === options.templateLanguage);
  if (!template) {
    const available = templates.map((candidate) => `${candidate.name} (${candidate.language})`).join(', ') || 'none';
    throw new TemplateChoiceError(
      `template ${options.templateName} (${options.templateLanguage}) is not an approved template of ${options.fromPhoneNumber}; available: ${available}`,
    );
  }
  if (!isBroadcastCategory(template.category)) {
    throw new TemplateChoiceError(
      `template ${template.name} (${template.language}) is ${template.category}; template broadcasts take ${broadcastCategories.join(' or ')} templates`,
    );
  }
  // Checked again here: an older service lists no `parameters`, and the CLI must not trust a shape it did not check.
  const parameters = templateParametersOf(template);
  const common = options.common ?? noCommonValues;
  const fitted = parameters ? fitTemplate(template, parameters, file, common) : fitWithoutParameters(template, file, common);

  const plan = planRequests(options.fileContent, fitted.recipients, {
    fromPhoneNumber: options.fromPhoneNumber,
    templateName: template.name,
    templateLanguage: template.language,
    templateType: template.category,
    broadcastName,
    ...(options.scheduledAt ? { scheduledAt: options.scheduledAt } : {}),
    broadcastFields: fitted.broadcastFields,
  });
  output.out(
    `${file.recipients.length} recipients in ${plan.length} request${plan.length === 1 ? '' : 's'} of up to 10,000; template ${template.name} (${template.language}, ${template.category})`,
  );

  const accepted: SendOutcome['accepted'] = [];
  for (const request of plan) {
    const answer = await sendPart(client, request, options.resend === true, output);
    accepted.push({ ...answer, part: request.part, recipients: request.body.data.length });
    const outcome = answer.replayed ? 'sent before with this file (same Idempotency-Key): nothing sent again, following it' : answer.message;
    output.out(
      `part ${request.part} of ${request.parts} (lines ${request.lines.first}-${request.lines.last}, ${request.body.data.length} recipient${request.body.data.length === 1 ? '' : 's'}): job ${answer.jobId}: ${outcome}`,
    );
  }
  if (accepted.length > 0 && accepted.every((answer) => answer.replayed))
    output.out('a replay: every part was sent before with this file, nothing new was sent; the summary below is of those jobs');

  const jobIds = accepted.map((answer) => answer.jobId);
  if (options.scheduledAt || !options.wait) {
    output.out(options.scheduledAt ? `scheduled for ${accepted[0]?.scheduledAt ?? options.scheduledAt}; follow with:` : 'not waiting; follow with:');
    for (const jobId of jobIds) output.out(`  npm run -s broadcast -- report ${jobId} --out ${jobId}.csv`);
    return { accepted, jobs: [] };
  }

  const total = accepted.reduce((sum, answer) => sum + answer.recipients, 0);
  const jobs = await followWithBar(client, jobIds, total, { pollIntervalMs: options.pollIntervalMs }, output);
  for (const line of formatSummary(jobs)) output.out(line);
  output.out(`per-recipient results:`);
  for (const jobId of jobIds) output.out(`  npm run -s broadcast -- report ${jobId} --out ${jobId}.csv`);
  return { accepted, jobs };
}

/** A file resent every few days for the 90 days jobs are kept: each earlier send is one hop. */
const MAX_RESEND_HOPS = 64;

/**
 * Sends one part with its key. A 422 naming an earlier job (the key was used for it longer ago than
 * the service keeps keys) means this part was sent before and nothing was sent now: without
 * `resend` that is the answer (AlreadySentError); with it, the part is sent again under a key
 * derived from that job, until the service accepts it.
 */
async function sendPart(client: BroadcastClient, request: PlannedRequest, resend: boolean, output: CliOutput): Promise<AcceptedBroadcast> {
  let key = request.idempotencyKey;
  for (let hop = 0; ; hop += 1) {
    try {
      return await client.sendTemplateBroadcast(asClientRequest(request.body), key);
    } catch (error) {
      const earlier = error instanceof BroadcastApiError ? error.earlierJob : undefined;
      if (!earlier || hop >= MAX_RESEND_HOPS) throw error;
      const refusal = new AlreadySentError(request.part, request.parts, earlier.jobId, earlier.acceptedAt);
      if (!resend) throw refusal;
      output.err(`${refusal.message.replace(/; run again with --resend.*$/, '')}; sending it again (--resend)`);
      key = resendKeyFor(key, earlier.jobId);
    }
  }
}

export function printProblems(error: Pick<RecipientsFileError, 'message' | 'problems'>, output: Pick<CliOutput, 'err'>): void {
  output.err(error.message);
  for (const problem of error.problems.slice(0, problemsShown)) output.err(`  ${problem}`);
  if (error.problems.length > problemsShown) output.err(`  … and ${error.problems.length - problemsShown} more`);
}
