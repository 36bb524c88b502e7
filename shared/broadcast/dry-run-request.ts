/**
 * A dry run's body (docs/BROADCAST.md "Dry run"): the same body as a broadcast, but a recipient
 * that breaks a rule is set aside with every rule it breaks instead of failing the request. What
 * is not a recipient's (the template, the sender, `data` being a list of 1 to 10,000) answers the
 * real accept's 400.
 */
import * as v from 'valibot';
import { parseRequest, issueParts } from '../http/validation';
import {
  addressedRecipientSchema,
  envelopeSchema,
  hasOneAddress,
  recipientPassingEveryRule,
  type RecipientInput,
  type TemplateBroadcastRequest,
} from './template-broadcast.schema';

/** `?dryRun=true` checks without sending (docs/BROADCAST.md "Dry run"); `false` or absent is a real accept. */
export const broadcastQuerySchema = v.object({ dryRun: v.optional(v.picklist(['true', 'false'], 'must be true or false')) });

/** One broken rule of one recipient: `index` in `data` as received, `field` its path (`data[3].toPhoneNumber`). */
export interface InvalidRow {
  index: number;
  field: string;
  rule: string;
}

/** What the dry run checks beyond a built request: which rows it holds and what the body's parse set aside. */
export interface ScreenedRows {
  /** Rows in the request body. */
  received: number;
  /** `indexes[i]`: the body's index of `request.data[i]`. */
  indexes: readonly number[];
  /** Every rule broken by the rows left out of `request.data`. */
  invalid: readonly InvalidRow[];
}

export interface DryRunRequest {
  /** The request with only the rows that passed the recipient schema (possibly none). */
  request: TemplateBroadcastRequest;
  screened: ScreenedRows;
}

/**
 * Parses a dry run's body: the envelope as a broadcast's (a RequestValidationError for the first
 * broken rule), each recipient on its own, all its issues collected.
 *
 * @example
 * parseDryRunRequest({ ...body, data: [good, { countryCode: '44' }] }).screened.invalid;
 * // [{ index: 1, field: 'data[1]', rule: 'must give either countryCode and toPhoneNumber, or userId (not both)' }]
 */
export function parseDryRunRequest(input: unknown): DryRunRequest {
  const envelope = parseRequest(envelopeSchema, input);
  const data: RecipientInput[] = [];
  const indexes: number[] = [];
  const invalid: InvalidRow[] = [];
  envelope.data.forEach((item, index) => {
    const fast = recipientPassingEveryRule(item);
    if (fast && hasOneAddress(fast)) {
      data.push(fast);
      indexes.push(index);
      return;
    }
    const result = v.safeParse(addressedRecipientSchema, item);
    if (result.success) {
      data.push(result.output);
      indexes.push(index);
      return;
    }
    const root = `data[${index}]`;
    for (const { field, rule } of issueParts(result.issues, root)) invalid.push({ index, field: field === root ? root : `${root}.${field}`, rule });
  });
  return { request: { ...envelope, data }, screened: { received: envelope.data.length, indexes, invalid } };
}
