/**
 * The send options that become request fields (`--from`, `--template`, `--language`, `--name`,
 * `--schedule`), checked by the service's own request schema before any request is made, so a bad
 * option stops the run as a usage error naming the option and the API's rule.
 */
import * as v from 'valibot';
import { templateBroadcastSchema } from '../../shared/broadcast/template-broadcast.schema';
import { issueMessages } from '../../shared/http/validation';
import { CliUsageError } from './errors';
import { maxRecipientsPerRequest, partName } from './send-plan';

const optionFields = v.pick(templateBroadcastSchema, ['broadcastName', 'fromPhoneNumber', 'templateName', 'templateLanguage', 'scheduledAt']);

const optionNames: Readonly<Record<string, string>> = {
  broadcastName: '--name',
  fromPhoneNumber: '--from',
  templateName: '--template',
  templateLanguage: '--language',
  scheduledAt: '--schedule',
};

export interface OptionFields {
  broadcastName: string;
  fromPhoneNumber: string;
  templateName: string;
  templateLanguage: string;
  scheduledAt?: string;
}

/**
 * Throws CliUsageError naming every option the API would refuse. `recipients` decides the parts,
 * whose names carry ` (part i of n)`: the longest name is the one checked.
 *
 * @example
 * checkSendOptions({ broadcastName: 'march', fromPhoneNumber: '+44', templateName: 't', templateLanguage: 'en' }, 3);
 * // CliUsageError: --from: fromPhoneNumber must contain digits only (no +, spaces or punctuation)
 */
export function checkSendOptions(fields: OptionFields, recipients: number): void {
  const parts = Math.max(1, Math.ceil(recipients / maxRecipientsPerRequest));
  const request = { ...fields, broadcastName: partName(fields.broadcastName, parts, parts) };
  const result = v.safeParse(optionFields, request, { abortPipeEarly: true });
  if (result.success) return;
  const problems = issueMessages(result.issues).map((message) => {
    const field = /^[A-Za-z]+/.exec(message)?.[0] ?? '';
    return `${optionNames[field] ?? field}: ${message}`;
  });
  throw new CliUsageError(problems.join('\n'));
}
