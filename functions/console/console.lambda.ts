import { join } from 'node:path';
import type { Environment } from '../../shared/config/app-config';
import { createGroupHandler } from '../../shared/http/create-group-handler';
import { functions } from '../../runtime-contract/resource-definitions';
import { consoleAssets } from './console-assets';
import { consoleAsset, consolePage } from './console.handler';

const built = functions.console.browserAssets!;

/**
 * On Lambda the built files sit next to the bundle (esbuild ran at bundling, lib/constructs/service-function.ts);
 * locally the local runtime builds them into `.build/` of the repository before it serves (local/browser-assets-build.ts).
 */
const assetsDirectory = (env: Environment): string =>
  env.LAMBDA_TASK_ROOT ? join(env.LAMBDA_TASK_ROOT, built.directory) : join(__dirname, '..', '..', '.build', built.directory);

/** No composition: the console reads nothing but its own files; the browser calls the keyed API routes. */
export const createHandler = (env: Environment) =>
  createGroupHandler({
    group: 'console',
    operations: { consolePage, consoleAsset: consoleAsset(consoleAssets(assetsDirectory(env))) },
  });

export const handler = createHandler(process.env);
