import { join, resolve } from 'node:path';

export const projectRoot = resolve(__dirname, '..', '..', '..');
/** Where the deployed-run suites find the synthesized assembly. */
export const assemblyDirectory = process.env.DEPLOYED_ASSEMBLY ?? join(projectRoot, '.deployed', 'cdk.out');
