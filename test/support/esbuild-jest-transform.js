/**
 * Jest transformer on esbuild (already a project dependency, it bundles the Lambdas): TypeScript
 * and the ESM-only @middy packages become CommonJS for jest. Chosen over @swc/jest and ts-jest
 * because the registry this project installs from lacks some of swc's platform binaries, which
 * makes `npm ci` fail, and because type checking already runs as its own step (`tsc --noEmit`).
 */
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const esbuild = require('esbuild');

const options = {
  format: 'cjs',
  target: 'node20',
  // jest's module system has no ESM loader: `import()` becomes `require()` as swc or babel would do.
  supported: { 'dynamic-import': false },
  sourcemap: 'external',
  sourcesContent: false,
};
/** Jest caches transformed files across runs: the key must change when this file or esbuild does. */
const transformerFingerprint = createHash('sha256').update(readFileSync(__filename)).update(esbuild.version).digest('hex');

module.exports = {
  process(sourceText, sourcePath) {
    const { code, map } = esbuild.transformSync(sourceText, {
      ...options,
      loader: sourcePath.endsWith('.ts') ? 'ts' : 'js',
      sourcefile: sourcePath,
    });
    return { code, map };
  },
  /**
   * Jest caches the instrumented output under this key too (it instruments after `process`), so
   * the key must tell a coverage run from a normal one, and one project's config from another's;
   * without `instrument` a `--coverage` run after a normal run reuses uninstrumented code: 0 %.
   */
  getCacheKey(sourceText, sourcePath, { configString, instrument }) {
    return createHash('sha256')
      .update(transformerFingerprint)
      .update(configString)
      .update(instrument ? 'instrument' : 'plain')
      .update(sourcePath)
      .update(sourceText)
      .digest('hex');
  },
};
