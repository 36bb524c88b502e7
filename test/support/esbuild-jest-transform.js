/**
 * Jest transformer on esbuild (already a project dependency, it bundles the Lambdas): TypeScript
 * and the ESM-only @middy packages become CommonJS for jest. Chosen over @swc/jest and ts-jest
 * because the registry this project installs from lacks some of swc's platform binaries, which
 * makes `npm ci` fail, and because type checking already runs as its own step (`tsc --noEmit`).
 */
const { transformSync } = require('esbuild');

module.exports = {
  process(sourceText, sourcePath) {
    const { code, map } = transformSync(sourceText, {
      loader: sourcePath.endsWith('.ts') ? 'ts' : 'js',
      format: 'cjs',
      target: 'node20',
      // jest's module system has no ESM loader: `import()` becomes `require()` as swc or babel would do.
      supported: { 'dynamic-import': false },
      sourcemap: 'external',
      sourcefile: sourcePath,
      sourcesContent: false,
    });
    return { code, map };
  },
};
