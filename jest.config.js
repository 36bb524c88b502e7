// Three layers, selectable with --selectProjects: unit (no network), integration
// (the local runtime started in-process), cdk (template assertions).
// @middy/* ships ESM only; esbuild turns it (and our TypeScript) into CommonJS for jest.
// The run's one known experimental warning is left out here and in every worker (test/support/quiet-known-warnings.js).
const quietWarnings = require.resolve('./test/support/quiet-known-warnings.js');
require(quietWarnings);
if (!(process.env.NODE_OPTIONS ?? '').includes(quietWarnings)) process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --require ${quietWarnings}`.trim();

const transform = { '^.+\\.(t|j)sx?$': '<rootDir>/test/support/esbuild-jest-transform.js' };
const common = {
  transform,
  transformIgnorePatterns: ['/node_modules/(?!(@middy|jose)/)'],
  testEnvironment: 'node',
  setupFiles: ['<rootDir>/test/support/jest-setup.ts'],
};

module.exports = {
  // `npm run test:coverage` measures the unit project only (the integration project starts whole
  // runtimes and takes many minutes on a shared 2-core machine). Thresholds sit just under what the
  // unit project measured; raise them as coverage grows, never lower them to let a change pass.
  collectCoverageFrom: ['<rootDir>/shared/**/*.ts', '<rootDir>/functions/**/*.ts'],
  coverageReporters: ['text-summary', 'json-summary', 'lcov'],
  coverageThreshold: { global: { statements: 69, branches: 58, functions: 64, lines: 70 } },
  // The slowest suites start first, also in a fresh clone without jest's timings (docs/TESTING.md "Keeping the suite fast").
  testSequencer: '<rootDir>/test/support/slow-suites-first-sequencer.js',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      // Every answer of runtime.call is checked against the OpenAPI document (test/support/openapi-conformance.ts).
      setupFilesAfterEnv: ['<rootDir>/test/support/openapi-conformance.setup.ts'],
    },
    { ...common, displayName: 'cdk', testMatch: ['<rootDir>/test/cdk/**/*.test.ts'] },
    // The synthesized assembly run as deployed (docs/TESTING.md "Proven as deployed"): `cdk synth` once, then the bundles.
    {
      ...common,
      displayName: 'deployed',
      testMatch: ['<rootDir>/test/deployed/**/*.test.ts'],
      globalSetup: '<rootDir>/test/deployed/harness/synthesize.ts',
    },
  ],
};
