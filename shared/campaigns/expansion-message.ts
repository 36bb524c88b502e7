/** The campaign-expansion queue's message as it travels (JSON), checked when received. */
import * as v from 'valibot';
import type { ExpansionMessage } from './ports';

const expansionMessageSchema = v.object({
  version: v.literal(1),
  organizationId: v.pipe(v.string(), v.minLength(1)),
  campaignId: v.pipe(v.string(), v.minLength(1)),
});

/**
 * The body of an expansion message.
 *
 * @example
 * encodeExpansionMessage({ version: 1, organizationId: 'org_1', campaignId: 'cmp_1' }); // '{"version":1,…}'
 */
export const encodeExpansionMessage = (message: ExpansionMessage): string =>
  JSON.stringify({ version: message.version, organizationId: message.organizationId, campaignId: message.campaignId });

/**
 * An expansion message from its body; throws (naming the rule) for a body that is not one.
 *
 * @example
 * decodeExpansionMessage('{"version":1,"organizationId":"org_1","campaignId":"cmp_1"}'); // { version: 1, … }
 */
export function decodeExpansionMessage(body: string): ExpansionMessage {
  return v.parse(expansionMessageSchema, JSON.parse(body));
}
