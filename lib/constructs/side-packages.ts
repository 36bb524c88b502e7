/**
 * npm packages a function needs only on a path most invocations never take, bundled as files of
 * their own beside the function's bundle instead of inside it: the bundle `require()`s the file
 * (its createRequire banner resolves it next to the bundle) only when that path runs, so a cold
 * start that never takes it neither reads nor parses them.
 *
 * - the Powertools Tracer with the X-Ray SDK (~124 KiB): only where tracing is on
 *   (shared/observability/tracer.ts), in functions that build SDK clients and trace them;
 * - jose (~26 KiB): only on the first person's token (shared/adapters/oidc/jose-token-verifier.ts),
 *   in the functions that serve routes and the request authorizer;
 * - Powertools Metrics (~12 KiB): only on a route group's first rare count, an audit entry or a click
 *   that could not be written (functions/composition/published-count.ts). The queue workers, which
 *   publish metrics on every record, keep it inside their bundle.
 *
 * Each is named in the bundle by an esbuild `define`: its file (`"./x.cjs"`) where the file is
 * built, `false` where the function has no use for it. Unbundled (tsx, jest) the name is undefined
 * and the code requires the package itself.
 */
import * as path from 'node:path';
import { routes } from '../../runtime-contract/all-routes';
import { requestAuthorizer, type FunctionDefinition, type FunctionName } from '../../runtime-contract/resource-definitions';
import { SDK_TRACER_FILE, SDK_TRACER_MODULE } from '../../shared/observability/tracer';
import { JOSE_FILE, JOSE_MODULE } from '../../shared/adapters/oidc/jose-module-name';
import { METRICS_FILE, METRICS_MODULE } from '../../shared/observability/metrics-module-name';

export interface SidePackage {
  /** The esbuild `define` key the code reads. */
  define: string;
  /** The file beside the bundle, as the bundle requires it (`./x.cjs`). */
  file: string;
  /** Its entry, relative to the root. */
  entry: string;
  /** Whether a function gets it. */
  wantedBy(name: FunctionName, definition: FunctionDefinition): boolean;
}

/** Whether a function's SDK calls are traced: it is granted some AWS resource (else it builds no client) and its definition does not turn tracing off. */
export function tracesSdkCallsOf(definition: FunctionDefinition): boolean {
  const grantsAws =
    Object.keys(definition.tables).length > 0 ||
    definition.sendsTo.length > 0 ||
    (definition.receivesFrom ?? []).length > 0 ||
    (definition.deadLettersOf ?? []).length > 0 ||
    definition.tokenKey !== undefined ||
    definition.managesApiKeys === true ||
    definition.managesPeople === true ||
    definition.schedulesFirings === true;
  return grantsAws && definition.tracesSdkCalls !== false;
}

/**
 * Functions that may meet a person's sign-in token: the authorizer, and every route group served
 * through the shared HTTP pipeline, which authenticates against the tenancy table (a group granted
 * no table, such as health, docs and the console, authenticates nobody).
 */
const verifiesPersonTokens = (name: FunctionName, definition: FunctionDefinition): boolean =>
  name === requestAuthorizer.functionName || servesRoutesWithTables(name, definition);

/** The route groups granted a table: those that may count a rare fault through published-count.ts (audit entries, clicks). */
const servesRoutesWithTables = (name: FunctionName, definition: FunctionDefinition): boolean =>
  Object.keys(definition.tables).length > 0 && routes.some((route) => route.group === name);

export const sidePackages: readonly SidePackage[] = [
  {
    define: SDK_TRACER_MODULE,
    file: SDK_TRACER_FILE,
    entry: 'shared/observability/sdk-tracer-module.ts',
    wantedBy: (_name, definition) => tracesSdkCallsOf(definition),
  },
  { define: JOSE_MODULE, file: JOSE_FILE, entry: 'shared/adapters/oidc/jose-module.ts', wantedBy: verifiesPersonTokens },
  { define: METRICS_MODULE, file: METRICS_FILE, entry: 'shared/observability/metrics-module.ts', wantedBy: servesRoutesWithTables },
];

/** The side packages a function gets. */
export const sidePackagesOf = (name: FunctionName, definition: FunctionDefinition): SidePackage[] =>
  sidePackages.filter((sidePackage) => sidePackage.wantedBy(name, definition));

/** A function's defines: each side package's file where it gets it, `false` elsewhere. */
export function sidePackageDefines(name: FunctionName, definition: FunctionDefinition): Record<string, string> {
  const wanted = sidePackagesOf(name, definition);
  return Object.fromEntries(sidePackages.map((sidePackage) => [sidePackage.define, wanted.includes(sidePackage) ? JSON.stringify(sidePackage.file) : 'false']));
}

/** esbuild arguments of a side package's file: CommonJS (required synchronously), minified, for `target`. */
export function sidePackageArguments(sidePackage: SidePackage, root: string, outfile: string, target: string): string[] {
  return [
    path.join(root, sidePackage.entry),
    '--bundle',
    '--platform=node',
    `--target=${target}`,
    '--format=cjs',
    '--minify',
    '--sourcemap',
    '--sources-content=false',
    '--charset=utf8',
    '--log-level=warning',
    `--outfile=${outfile}`,
  ];
}
