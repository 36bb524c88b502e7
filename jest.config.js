// Three layers, selectable with --selectProjects: unit (no network), integration
// (the local runtime started in-process), cdk (template assertions).
// @middy/* ships ESM only; esbuild turns it (and our TypeScript) into CommonJS for jest.
const transform = { '^.+\\.(t|j)sx?$': '<rootDir>/test/support/esbuild-jest-transform.js' };
const common = {
  transform,
  transformIgnorePatterns: ['/node_modules/(?!(@middy)/)'],
  testEnvironment: 'node',
  setupFiles: ['<rootDir>/test/support/jest-setup.ts'],
};

module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    { ...common, displayName: 'integration', testMatch: ['<rootDir>/test/integration/**/*.test.ts'] },
    { ...common, displayName: 'cdk', testMatch: ['<rootDir>/test/cdk/**/*.test.ts'] },
  ],
};
