/**
 * The surfaces' URLs from a `cdk deploy --outputs-file` JSON (`{ <stack>: { <output>: <value> } }`),
 * as LocalStack serves them, and from a deployed stack's outputs as AWS serves them. The ApiStack's
 * outputs are `<Surface>ApiUrl` (lib/stack-outputs.ts).
 */
import { stackOutputNames } from '../../lib/stack-outputs';
import { surfaces, type SurfaceName } from '../../runtime-contract/route-manifest';

/** `https://<id>.execute-api.<region>.amazonaws.com/<path>` → `<localstack scheme>://<id>.execute-api.<localstack host>/<path>`. */
export function toLocalStackUrl(awsUrl: string, localStackUrl: string): string {
  const match = /^https?:\/\/([^.]+)\.execute-api\.[^/]+(\/.*)?$/.exec(awsUrl);
  if (!match) throw new Error(`not an API Gateway URL: ${awsUrl}`);
  const endpoint = new URL(localStackUrl);
  return `${endpoint.protocol}//${match[1]}.execute-api.${endpoint.host}${match[2] ?? '/'}`;
}

export function localStackSurfaceUrls(outputs: Record<string, Record<string, string>>, localStackUrl: string): Record<SurfaceName, string> {
  const all = Object.assign({}, ...Object.values(outputs)) as Record<string, string>;
  const urls = {} as Record<SurfaceName, string>;
  for (const name of Object.keys(surfaces) as SurfaceName[]) {
    const url = all[stackOutputNames.surfaceUrl(name)];
    if (url === undefined) throw new Error(`no ${stackOutputNames.surfaceUrl(name)} output in the outputs file`);
    urls[name] = toLocalStackUrl(url, localStackUrl);
  }
  return urls;
}

/**
 * The smoke options `--<surface>-url` from a deployed stack's outputs (AWS URLs as they are);
 * a surface without an output is left to the other options.
 *
 * @example
 * surfaceUrlOptionsOf({ BroadcastApiUrl: 'https://abc.execute-api.eu-west-1.amazonaws.com/prod/api/v2' });
 * // { 'broadcast-url': 'https://abc.execute-api.eu-west-1.amazonaws.com/prod/api/v2' }
 */
export function surfaceUrlOptionsOf(outputs: Readonly<Record<string, string>>): Partial<Record<`${SurfaceName}-url`, string>> {
  const options: Partial<Record<`${SurfaceName}-url`, string>> = {};
  for (const name of Object.keys(surfaces) as SurfaceName[]) {
    const url = outputs[stackOutputNames.surfaceUrl(name)];
    if (url !== undefined) options[`${name}-url`] = url;
  }
  return options;
}
