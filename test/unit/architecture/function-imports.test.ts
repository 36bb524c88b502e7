import { entryOf, functions, type FunctionDefinition, type FunctionName } from '../../../runtime-contract/resource-definitions';
import { buildImportGraph } from './import-graph';

/** Which SDK client each AWS package is part of. */
const clientOfPackage: Record<string, string> = {
  '@aws-sdk/client-dynamodb': 'dynamodb',
  '@aws-sdk/lib-dynamodb': 'dynamodb',
  '@aws-sdk/client-sqs': 'sqs',
  '@aws-sdk/client-kms': 'kms',
  '@aws-sdk/client-api-gateway': 'api-gateway',
  '@aws-sdk/client-cognito-identity-provider': 'cognito',
};

const granted = (definition: FunctionDefinition): string[] =>
  [
    Object.keys(definition.tables).length > 0 && 'dynamodb',
    (definition.sendsTo.length > 0 || (definition.receivesFrom ?? []).length > 0) && 'sqs',
    definition.tokenKey && 'kms',
    definition.managesApiKeys && 'api-gateway',
    definition.managesPeople && 'cognito',
  ].filter((client): client is string => Boolean(client));

const graph = buildImportGraph();
const closureOf = (entry: string): Set<string> => {
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    pending.push(...(graph.edges.get(file) ?? []));
  }
  return seen;
};

describe.each(Object.keys(functions) as FunctionName[])('function %s', (name) => {
  const closure = closureOf(entryOf(name));

  test('does not load the whole-platform composition', () => {
    expect(closure.has(entryOf(name))).toBe(true);
    expect(closure.has('functions/composition.ts')).toBe(false);
  });

  // The docs function describes every route (the OpenAPI document), so it alone loads the complete list.
  const describesEveryRoute = name === 'docs';
  test('loads the /upstream routes only if it is the wrapper (or the docs), and the complete route list only if it is the docs', () => {
    expect(closure.has('runtime-contract/upstream-manifest-routes.ts')).toBe(name === 'upstream-wrapper' || describesEveryRoute);
    expect(closure.has('runtime-contract/all-routes.ts')).toBe(describesEveryRoute);
  });

  test('imports exactly the SDK clients its resource definition grants', () => {
    const clients = new Set(
      [...closure].flatMap((file) =>
        graph.packages
          .get(file)!
          .map((pkg) => clientOfPackage[pkg])
          .filter(Boolean),
      ),
    );
    expect([...clients].sort()).toEqual(granted(functions[name]).sort());
  });
});
