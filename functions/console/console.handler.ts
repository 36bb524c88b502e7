import { httpOperation } from '../../shared/http/http-operation';
import { consoleContentSecurityPolicyFor, consolePageHeaders, consolePageHtml } from '../../shared/console/console-page';
import { ConsoleAssetNotFoundError } from '../../shared/console/errors';
import type { ConsoleAssets } from './console-assets';

/** The built files change only with a deployment; the page itself is never cached (it names them). */
const CACHEABLE = { 'Cache-Control': 'public, max-age=3600' };

/** The page; `identityOrigins`: the identity provider's origins its policy lets it call (none without people sign-in). */
export const consolePage = (identityOrigins: () => Promise<readonly string[]> = async () => []) =>
  httpOperation('none', async (request) => ({
    statusCode: 200,
    headers: { ...consolePageHeaders, 'Content-Security-Policy': consoleContentSecurityPolicyFor(await identityOrigins()) },
    body: undefined,
    textBody: consolePageHtml(request.path),
  }));

export const consoleAsset = (assets: ConsoleAssets) =>
  httpOperation('none', async (request) => {
    const file = request.pathParameters.file ?? '';
    const asset = await assets.read(file);
    if (!asset) throw new ConsoleAssetNotFoundError(file);
    return { statusCode: 200, headers: { 'Content-Type': asset.contentType, ...CACHEABLE }, body: undefined, textBody: asset.text };
  });
