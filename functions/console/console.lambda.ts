import { join } from 'node:path';
import { parseFunctionConfig, type Environment } from '../../shared/config/app-config';
import { identityOriginsOf, signInSettingsOf } from '../../shared/console/sign-in-settings';
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

/**
 * No composition: the console reads nothing but its own files and the people sign-in's settings
 * (parsed on first use); the browser calls the API routes. The identity provider's origins for the
 * page's policy are discovered once per container (a failed discovery is tried again next time).
 */
export const createHandler = (env: Environment) => {
  let people: ReturnType<typeof parseFunctionConfig>['people'] | undefined;
  const peopleConfig = () => (people ??= parseFunctionConfig('console', env).people);
  let origins: Promise<string[]> | undefined;
  const identityOrigins = (): Promise<string[]> => {
    const issuer = peopleConfig().issuers[0]?.issuer;
    if (!issuer) return Promise.resolve([]);
    origins ??= identityOriginsOf(issuer, fetch).then(({ origins: found, discovered }) => {
      if (!discovered) origins = undefined;
      return found;
    });
    return origins;
  };
  return createGroupHandler({
    group: 'console',
    operations: {
      consolePage: consolePage(identityOrigins),
      consoleAsset: consoleAsset(consoleAssets(assetsDirectory(env), () => signInSettingsOf(peopleConfig()))),
    },
  });
};

export const handler = createHandler(process.env);
