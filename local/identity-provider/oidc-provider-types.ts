/**
 * The part of panva's `oidc-provider` (9, ESM only, no type declarations of its own) this runtime
 * uses, and its loading: `local/native-import.ts` imports it, also under jest.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import vm from 'node:vm';
import { importNativeEsm, loadedByJest } from '../native-import';

export interface OidcGrant {
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: string[]): void;
  addResourceScope(indicator: string, scope: string): void;
  save(): Promise<string>;
}

/** What `interactionDetails` tells about a pending sign-in (the fields read here). */
export interface InteractionDetails {
  uid: string;
  prompt: { name: string; details: { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> } };
  params: Record<string, unknown> & { client_id?: string; scope?: string; login_hint?: string };
  session?: { accountId?: string };
  grantId?: string;
}

export interface InteractionResult {
  login?: { accountId: string };
  consent?: { grantId?: string };
}

export interface OidcProvider {
  issuer: string;
  callback(): (request: IncomingMessage, response: ServerResponse) => void;
  interactionDetails(request: IncomingMessage, response: ServerResponse): Promise<InteractionDetails>;
  interactionFinished(
    request: IncomingMessage,
    response: ServerResponse,
    result: InteractionResult,
    options?: { mergeWithLastSubmission?: boolean },
  ): Promise<void>;
  Grant: { new (init: { accountId: string; clientId: string }): OidcGrant; find(id: string): Promise<OidcGrant | undefined> };
  on(event: 'server_error', listener: (context: unknown, error: Error) => void): void;
}

/** The context oidc-provider hands its configuration's functions (the fields read here). */
export interface OidcContext {
  type: string;
  body: string;
  set(header: string, value: string): void;
  oidc: {
    client?: { clientId: string };
    entities: { IdTokenHint?: unknown };
    params: Record<string, string | undefined>;
  };
}

export interface OidcClient {
  clientId: string;
  grantTypeAllowed(grantType: string): boolean;
}

export type OidcProviderConstructor = new (issuer: string, configuration: Record<string, unknown>) => OidcProvider;

/**
 * The Provider class. oidc-provider 9 names Node 22 as its runtime and prints a warning on older
 * ones when first imported; the local runtime supports Node 20 (README "Requirements") and the
 * provider's tests pass on it, so that one line is left out; every other line passes.
 *
 * @example
 * const Provider = await loadOidcProvider();
 * const provider = new Provider('http://127.0.0.1:4020', configuration);
 */
export async function loadOidcProvider(): Promise<OidcProviderConstructor> {
  // Node's own console: under jest the module runs in Node's main context, whose console is not jest's.
  const nodeConsole = vm.runInThisContext('console') as Console;
  const warn = nodeConsole.warn;
  nodeConsole.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].includes('oidc-provider WARNING: Unsupported runtime')) return;
    warn.apply(nodeConsole, args);
  };
  let Provider: OidcProviderConstructor;
  try {
    Provider = (await importNativeEsm<{ Provider: OidcProviderConstructor }>('oidc-provider')).Provider;
  } finally {
    nodeConsole.warn = warn;
  }
  if (!loadedByJest()) return Provider;
  // Under jest the provider runs in Node's main context and this code in jest's: its check that the
  // configuration's parts are plain objects (`constructor === Object`) fails across the two, so the
  // configuration's objects and arrays are rebuilt in the main context (functions pass as they are).
  const inMainContext = vm.runInThisContext(
    `(function rebuild(value) {
      if (Array.isArray(value)) return Array.from(value, rebuild);
      if (value && typeof value === 'object' && Object.getPrototypeOf(Object.getPrototypeOf(value) ?? Object.prototype) === null) {
        const copy = {};
        for (const key of Object.keys(value)) copy[key] = rebuild(value[key]);
        return copy;
      }
      return value;
    })`,
  ) as (value: unknown) => Record<string, unknown>;
  return class extends (Provider as unknown as new (...args: unknown[]) => OidcProvider) {
    constructor(issuer: string, configuration: Record<string, unknown>) {
      super(issuer, inMainContext(configuration));
    }
  } as unknown as OidcProviderConstructor;
}
