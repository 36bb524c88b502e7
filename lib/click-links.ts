/**
 * Tracked links (docs/OUTCOMES.md "Tracked links"): the clicks surface's stage URL is the platform's
 * CLICK_BASE_URL. Every function that reads templates from Meta gets it (the template catalog marks
 * a URL button `{clickBaseUrl}/r/{{1}}` as a tracked link), and the stack outputs it as
 * `ClickBaseUrl`, the base a business writes into its template's URL button.
 */
import { CfnOutput, type Stack } from 'aws-cdk-lib';
import { functions, type FunctionName } from '../runtime-contract/resource-definitions';
import { surfaces } from '../runtime-contract/route-manifest';
import type { FrontDoor } from './surface-apis';
import type { ServiceFunction } from './constructs/service-function';
import { stackOutputNames } from './stack-outputs';

/**
 * @example
 * wireClickBaseUrl(stack, serviceFunctions, frontDoors.clicks);
 */
export function wireClickBaseUrl(stack: Stack, serviceFunctions: Record<FunctionName, ServiceFunction>, clicks: FrontDoor): void {
  const clickBaseUrl = clicks.urlOf(surfaces.clicks.basePath).replace(/\/+$/, '');
  for (const name of Object.keys(functions) as FunctionName[]) {
    if (functions[name].callsUpstream) serviceFunctions[name].addEnvironment('CLICK_BASE_URL', clickBaseUrl);
  }
  new CfnOutput(stack, stackOutputNames.clickBaseUrl, {
    value: clickBaseUrl,
    description: 'Tracked links: the base of a template URL button {ClickBaseUrl}/r/{{1}} (docs/OUTCOMES.md "Tracked links")',
  });
}
