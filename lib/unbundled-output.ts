/**
 * `-c skipBundling=true` puts placeholder code in every function: an assembly for offline checks
 * that must never be deployed. Written into `cdk.out` it silently replaced the deployable one, so
 * it gets its own folder (`npm run synth:unbundled` → `cdk.out.unbundled`).
 */
import { basename } from 'node:path';

/** The folder an unbundled synth writes to. */
export const unbundledOutputFolder = 'cdk.out.unbundled';

/**
 * Throws when an unbundled synth would write into the CLI's default folder (`cdk.out`, the one
 * `cdk deploy` reads). `outdir` is the CLI's `CDK_OUTDIR`; absent (tests synthesizing in
 * process), nothing is checked.
 *
 * @example
 * refuseUnbundledIntoDeployableOutput(true, '/work/cdk.out'); // throws: use -o cdk.out.unbundled
 * refuseUnbundledIntoDeployableOutput(true, '/work/cdk.out.unbundled'); // fine
 */
export function refuseUnbundledIntoDeployableOutput(skipBundling: boolean, outdir: string | undefined): void {
  if (!skipBundling || outdir === undefined || basename(outdir) !== 'cdk.out') return;
  throw new Error(
    `-c skipBundling=true writes placeholder code, never to be deployed: synthesize it into its own folder, ` +
      `\`npx cdk synth -c skipBundling=true -o ${unbundledOutputFolder}\` (npm run synth:unbundled), so cdk.out keeps a deployable assembly`,
  );
}
