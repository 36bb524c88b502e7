/** The Meta app use cases bound to their ports: what the operators' side (admin CLI, demo seed, tests) calls. */
import { MetaEventsReplayNotConfiguredError } from './errors';
import {
  configureMetaApp,
  describeMetaApp,
  loadMetaAppSecrets,
  type ConfigureMetaAppInput,
  type MetaAppSecretPorts,
  type MetaAppStatus,
} from './meta-app-settings';
import type { MetaAppSecretSource, MetaEventsDeadLetters } from './ports';

export interface MetaAppServices {
  /** Stores the app secret and verify token (encrypted); see `configureMetaApp`. */
  configure(input: ConfigureMetaAppInput): Promise<MetaAppStatus>;
  describe(): Promise<MetaAppStatus>;
  /** The decrypted settings, as the webhook endpoint sees them. */
  readonly secrets: MetaAppSecretSource;
  /** Moves up to `limit` messages of the metaEvents dead-letter queue back to the queue. */
  replayDeadLetters(limit: number): Promise<{ moved: number }>;
}

export interface MetaAppServicePorts extends MetaAppSecretPorts {
  /** Undefined when the dead-letter queue's URL is not configured (META_EVENTS_DEAD_LETTER_QUEUE_URL). */
  deadLetters(): MetaEventsDeadLetters | undefined;
}

export const secretSourceOf = (ports: MetaAppSecretPorts): MetaAppSecretSource => ({ load: (options) => loadMetaAppSecrets(ports, options) });

export function bindMetaAppServices(ports: MetaAppServicePorts): MetaAppServices {
  return {
    configure: async (input) => {
      const status = await configureMetaApp(ports, input);
      ports.secretsCache.clear();
      return status;
    },
    describe: () => describeMetaApp(ports),
    secrets: secretSourceOf(ports),
    replayDeadLetters: async (limit) => {
      const deadLetters = ports.deadLetters();
      if (!deadLetters) throw new MetaEventsReplayNotConfiguredError('META_EVENTS_DEAD_LETTER_QUEUE_URL is not configured');
      return { moved: await deadLetters.moveBack(limit) };
    },
  };
}
