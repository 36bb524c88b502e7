/**
 * The surfaces' URLs from a `cdk deploy --outputs-file` JSON (`{ <stack>: { <output>: <value> } }`),
 * as LocalStack serves them. The ApiStack's outputs are `<Surface>ApiUrl` (lib/api-stack.ts).
 */
import { pascal } from '../../lib/naming';
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
    const url = all[`${pascal(name)}ApiUrl`];
    if (url === undefined) throw new Error(`no ${pascal(name)}ApiUrl output in the outputs file`);
    urls[name] = toLocalStackUrl(url, localStackUrl);
  }
  return urls;
}
