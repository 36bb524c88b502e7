/**
 * The environment the local runtime's handlers run with: the backends' variables and the local
 * settings, installed into this process for the time the runtime runs.
 */
import { resetServicesForTests } from '../functions/composition';
import type { Stops } from './runtime-backends';

/** The backends' variables and the local settings: what the handlers run with. */
export function runtimeEnvironment(
  backendEnvironment: Record<string, string>,
  options: { upstreamTimeoutMs?: number; environment?: Record<string, string> },
): Record<string, string> {
  const environment = { ...backendEnvironment };
  // Local mode: webhook receivers on this machine (plain http, loopback) can be tried. Never set on AWS.
  environment.CUSTOMER_WEBHOOKS_ALLOW_LOOPBACK = '1';
  // Metrics (EMF) are counted and dropped locally instead of printed (POWERTOOLS_METRICS_DISABLED=false
  // prints them). Tracing needs no switch: Powertools enables it only inside Lambda.
  environment.POWERTOOLS_METRICS_DISABLED = process.env.POWERTOOLS_METRICS_DISABLED ?? 'true';
  if (options.upstreamTimeoutMs) environment.UPSTREAM_TIMEOUT_MS = String(options.upstreamTimeoutMs);
  // The local sweep runs every second: a job whose timer was missed fires within about 2 s of its time.
  environment.BROADCAST_SCHEDULE_SWEEP_GRACE_SECONDS = '1';
  return Object.assign(environment, options.environment);
}

/**
 * The handlers read configuration from the environment, exactly as in Lambda. What was there before
 * comes back on stop, so a later runtime in the same process starts from a clean slate. The
 * operators' side (demo seed, key checks, tests' getServices()) sees the whole environment; each
 * function sees only its own.
 */
export function installEnvironment(environment: Record<string, string>, stops: Stops): void {
  const previousEnvironment = Object.fromEntries(Object.keys(environment).map((name) => [name, process.env[name]]));
  stops.push(async () => {
    for (const [name, value] of Object.entries(previousEnvironment)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  Object.assign(process.env, environment);
  resetServicesForTests();
  stops.push(async () => resetServicesForTests());
}
