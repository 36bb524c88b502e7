/**
 * One function's composition at its init: its configuration parsed now (a missing table or queue
 * fails the cold start, naming the variable), its ports built on the first request that needs them.
 */
import { parseFunctionConfig, type Environment } from '../../shared/config/app-config';
import type { FunctionName } from '../../runtime-contract/resource-definitions';
import { createCompositionContext, memoize, type CompositionContext, type ServiceOverrides } from './composition-context';

export function composeFunction<Dependencies>(
  name: FunctionName,
  env: Environment,
  compose: (context: CompositionContext) => Dependencies,
  overrides?: ServiceOverrides,
): () => Dependencies {
  const context = createCompositionContext(parseFunctionConfig(name, env), overrides, { name, environment: env });
  return memoize(() => compose(context));
}
