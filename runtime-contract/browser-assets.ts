/**
 * How browser files (the campaign console's script and style sheet) are built: one set of esbuild
 * options used by the CDK bundling hook (as CLI flags, lib/constructs/service-function.ts) and by
 * the local runtime (esbuild's API, local/browser-assets-build.ts), so the files served locally
 * and on AWS are built the same way. Everything is bundled (Chart.js included): no CDN, works offline.
 *
 * Pure data: no esbuild import, so a Lambda bundle that loads the resource definitions stays small.
 */
export const browserBuildOptions = {
  bundle: true,
  minify: true,
  // One classic script (no module loader needed); ES2020 covers every browser the console supports.
  format: 'iife',
  target: 'es2020',
  // Chart.js's MIT notice stays at the end of the file.
  legalComments: 'eof',
} as const;

/**
 * The esbuild command line for one entry (the CDK hook runs it on the build machine).
 *
 * @example
 * esbuildArguments('/repo/console/ui/main.ts', '/out/console-assets/console.js');
 * // ['/repo/console/ui/main.ts', '--bundle', '--minify', '--format=iife', '--target=es2020', '--legal-comments=eof', '--outfile=/out/console-assets/console.js']
 */
export function esbuildArguments(entry: string, outfile: string): string[] {
  const { format, target, legalComments } = browserBuildOptions;
  return [entry, '--bundle', '--minify', `--format=${format}`, `--target=${target}`, `--legal-comments=${legalComments}`, `--outfile=${outfile}`];
}
