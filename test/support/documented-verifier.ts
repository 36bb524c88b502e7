/** The webhook verification snippet exactly as docs/CUSTOMER-WEBHOOKS.md prints it, loaded and run as a customer would. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type DocumentedVerifier = (secret: string, headers: Record<string, unknown>, rawBody: string | Buffer, now?: Date, toleranceSeconds?: number) => boolean;

export function documentedSnippet(): { source: string; verifyWebhook: DocumentedVerifier } {
  const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'CUSTOMER-WEBHOOKS.md'), 'utf8');
  const block = /<!-- verification-snippet:start -->\s*```js\n([\s\S]*?)```\s*<!-- verification-snippet:end -->/.exec(doc);
  if (!block) throw new Error('the verification snippet is missing from docs/CUSTOMER-WEBHOOKS.md');
  const module = { exports: {} as { verifyWebhook: DocumentedVerifier } };
  new Function('require', 'module', block[1]!)(require, module);
  return { source: block[1]!, verifyWebhook: module.exports.verifyWebhook };
}
