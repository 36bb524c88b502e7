/**
 * The local identity provider as the local runtime starts it: beside the emulators (reading or
 * making its keys and accounts overlaps their start), on its port setting (IDENTITY_PORT for
 * `npm start`), stopped with the runtime.
 */
import { listeningOn } from '../errors';
import type { Stops } from '../runtime-backends';
import { startIdentityProvider, type IdentityProviderOptions, type LocalIdentityProvider } from './identity-provider';

/**
 * Starts the provider and returns the wait for it; its stop is on `stops` at once (runs even if the
 * boot fails before the wait).
 *
 * @example
 * const identityStarting = startRuntimeIdentity({ port: 0, dataDirectory, persist: false }, stops);
 * const backends = await startBackends(…);
 * const identity = await identityStarting;
 */
export function startRuntimeIdentity(options: IdentityProviderOptions, stops: Stops): Promise<LocalIdentityProvider> {
  const starting = listeningOn(options.port, 'IDENTITY_PORT', 'the local identity provider', () => startIdentityProvider(options));
  // Awaited later: a failure is the boot's (it awaits this promise), not an unhandled rejection now.
  starting.catch(() => undefined);
  stops.push(async () => (await starting.catch(() => undefined))?.stop());
  return starting;
}
