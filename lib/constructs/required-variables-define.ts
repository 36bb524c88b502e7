/**
 * A function's required variables written into its bundle at synth (esbuild `define`), so its
 * configuration checks them (shared/config/app-config.ts `parseFunctionConfig`) without bundling
 * every function's resource definition. The list comes from the definitions the same synth grants
 * from (`variablesOf`), so the check and the grants cannot differ.
 */
import { functions, variablesOf, type FunctionName } from '../../runtime-contract/resource-definitions';

export const REQUIRED_VARIABLES = '__REQUIRED_VARIABLES__';

/**
 * The define of `name`'s bundle: its required variables as a JSON string literal.
 *
 * @example
 * requiredVariablesDefine('broadcast-status'); // { __REQUIRED_VARIABLES__: '"[\\"TENANCY_TABLE\\",…]"' }
 */
export function requiredVariablesDefine(name: FunctionName): Record<string, string> {
  return { [REQUIRED_VARIABLES]: JSON.stringify(JSON.stringify(variablesOf(functions[name]).required)) };
}
