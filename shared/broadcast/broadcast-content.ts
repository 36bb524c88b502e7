/**
 * A broadcast's values against its template, recipient by recipient: body values (positional
 * count as the contract words it, or names), and the header, buttons, carousel and offer of
 * docs/BROADCAST.md "Rich templates" (shared/templates/). Each recipient's own value wins over the
 * broadcast's; the broadcast's content is checked once, however many recipients share it, so a
 * 10,000-recipient request with one header costs one check.
 */
import type { ChunkRecipient } from './chunk-message';
import { TemplateParameterCountError } from './errors';
import type { UploadedMedia } from './ports';
import type { TemplateBroadcastRequest } from './template-broadcast.schema';
import { internationalNumberOf } from '../recipients/phone-number';
import { checkNamedParameters, checkTemplateContent, mediaIdsOf } from '../templates/content-check';
import { TemplateContentError } from '../templates/errors';
import { contentOf, effectiveContent, type TemplateContent, type TemplateParameters } from '../templates/template-content.schema';
import type { BodyRequirement, TemplateRequirements } from '../templates/template-requirements';

type RecipientRequest = TemplateBroadcastRequest['data'][number];

/** The contract's rule 6, worded as before rich templates: each recipient's values must fill the numbered placeholders. */
function positionalValues(
  request: TemplateBroadcastRequest,
  recipient: RecipientRequest,
  index: number,
  body: Extract<BodyRequirement, { format: 'POSITIONAL' }>,
): string[] {
  const own = recipient.templateParams;
  const global = request.globalTemplateParams;
  // Values by name for a numbered template: refused by name before the count is compared (its
  // path and label strings built only then, not for each of 10,000 recipients).
  const given = own ?? global;
  if (given !== undefined && !Array.isArray(given))
    checkNamedParameters(body, given, own ? `data[${index}].templateParams` : 'globalTemplateParams', `template ${request.templateName}`);
  const parameters = (own ?? global ?? []) as string[];
  const count = body.count;
  if (parameters.length !== count) {
    const source = own
      ? `data[${index}].templateParams has ${parameters.length}`
      : global
        ? `globalTemplateParams (used by data[${index}]) has ${parameters.length}`
        : `data[${index}] has no templateParams and no globalTemplateParams: 0`;
    throw new TemplateParameterCountError(`${source} values; template ${request.templateName} needs exactly ${count} ({{1}}..{{${count}}})`);
  }
  return parameters;
}

/** A named template's values: the recipient's own object, else the broadcast's (checked once, `checked` remembers it). */
function namedValues(
  request: TemplateBroadcastRequest,
  recipient: RecipientRequest,
  index: number,
  body: Extract<BodyRequirement, { format: 'NAMED' }>,
  checked: Set<unknown>,
): TemplateParameters {
  const label = `template ${request.templateName}`;
  const own = recipient.templateParams;
  if (own !== undefined) {
    checkNamedParameters(body, own, `data[${index}].templateParams`, label);
    return own;
  }
  const global = request.globalTemplateParams;
  if (global === undefined) {
    if (body.names.length === 0) return [];
    throw new TemplateContentError(`data[${index}] has no templateParams and no globalTemplateParams: ${label} needs ${body.names.join(', ')}`);
  }
  if (!checked.has(global)) checkNamedParameters(body, global, 'globalTemplateParams', label);
  checked.add(global);
  return global;
}

/**
 * Every recipient as the chunk worker sends it ({ index, to, parameters, content }), or the first
 * rule broken, naming the field and the recipient's index. `sendsAt`: when the job is sent (an
 * offer must expire after it).
 *
 * @example
 * resolveRecipients(request, requirementsOf(template), numbers, now)[0]; // { index: 0, to: '447700900001', parameters: ['Ada'] }
 */
export function resolveRecipients(
  request: TemplateBroadcastRequest,
  requirements: TemplateRequirements,
  numbers: readonly string[] | undefined,
  sendsAt: Date,
): ChunkRecipient[] {
  const resolve = recipientResolver(request, requirements, sendsAt);
  return request.data.map((recipient, index) => resolve(recipient, index, numbers?.[index]));
}

/**
 * One recipient at a time, as `resolveRecipients` resolves each (the dry run calls it per row to
 * collect every broken rule, `index` being the row's index in the request as received). The
 * broadcast's own content is checked once across the calls.
 *
 * @example
 * recipientResolver(request, requirements, now)(request.data[0], 0, '447700900001'); // { index: 0, to: '447700900001', parameters: ['Ada'] }
 */
export function recipientResolver(
  request: TemplateBroadcastRequest,
  requirements: TemplateRequirements,
  sendsAt: Date,
): (recipient: RecipientRequest, index: number, key: string | undefined) => ChunkRecipient {
  const { body } = requirements;
  const templateLabel = `template ${request.templateName}`;
  const broadcast = contentOf(request);
  const checked = new Set<unknown>();
  // Built only for a check that runs (its prefix a string per recipient): once for the broadcast's content.
  const sourceOf = (own: TemplateContent | undefined, index: number) => ({ own, broadcast, ownPrefix: `data[${index}].`, templateLabel });
  return (recipient, index, key) => {
    const parameters = body.format === 'POSITIONAL' ? positionalValues(request, recipient, index, body) : namedValues(request, recipient, index, body, checked);
    const own = contentOf(recipient);
    if (own) checkTemplateContent(requirements, effectiveContent(broadcast, own), sourceOf(own, index), sendsAt);
    else if (!checked.has(broadcast)) {
      checkTemplateContent(requirements, broadcast ?? {}, sourceOf(own, index), sendsAt);
      checked.add(broadcast);
    }
    const to = key ?? recipient.userId ?? internationalNumberOf(recipient.countryCode ?? '', recipient.toPhoneNumber ?? '');
    return own ? { index, to, parameters, content: own } : { index, to, parameters };
  };
}

/**
 * Refuses (TemplateContentError) a media id the organization did not upload through /upstream: a
 * broadcast can only send media its organization owns. One read for every id of the request.
 *
 * @example
 * await requireOwnedMedia(media, 'org_1', contentOf(request), recipients, now); // throws for a foreign mediaId
 */
export async function requireOwnedMedia(
  media: UploadedMedia,
  organizationId: string,
  broadcast: TemplateContent | undefined,
  recipients: readonly ChunkRecipient[],
  now: Date,
): Promise<void> {
  const named = mediaIdsOf(broadcast, '');
  // Only a recipient with its own content can name media: the others cost no path string (10,000 a large accept).
  for (const recipient of recipients) if (recipient.content !== undefined) named.push(...mediaIdsOf(recipient.content, `data[${recipient.index}].`));
  if (named.length === 0) return;
  const owned = await media.ownedMedia(organizationId, [...new Set(named.map(({ id }) => id))], now);
  const foreign = named.find(({ id }) => !owned.has(id));
  if (foreign) {
    throw new TemplateContentError(
      `${foreign.path} ${foreign.id} is not a media id this organization uploaded (upload it with POST /upstream/{phoneNumberId}/media, or give a link)`,
    );
  }
}
