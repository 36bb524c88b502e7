/**
 * Assembles the two stacks. Used by `bin/app.ts` and by the CDK tests, so both synthesize the
 * same thing from the same settings.
 */
import { Annotations, Tags, type App } from 'aws-cdk-lib';
import { ApiStack } from './api-stack';
import { suppressApiStackFindings, suppressStatefulStackFindings } from './nag-suppressions';
import type { PlatformSettings } from './settings';
import { StatefulStack } from './stateful-stack';

export interface Platform {
  stateful: StatefulStack;
  api: ApiStack;
}

export function createPlatform(app: App, settings: PlatformSettings): Platform {
  const env = settings.account || settings.region ? { account: settings.account, region: settings.region } : undefined;
  const prefix = settings.stackNamePrefix;

  const stateful = new StatefulStack(app, 'StatefulStack', {
    stackName: `${prefix}-Stateful`,
    env,
    tokenKeyAlias: `alias/${prefix.toLowerCase()}/upstream-access-tokens`,
    cognitoDomainPrefix: settings.people.cognitoDomainPrefix,
  });
  const api = new ApiStack(app, 'ApiStack', {
    stackName: `${prefix}-Api`,
    env,
    stateful,
    settings,
  });

  // Strong references (CloudFormation exports) are intended: they stop a StatefulStack update from
  // removing a table, queue or key the ApiStack still uses.
  Annotations.of(api).acknowledgeWarning(
    '@aws-cdk/core:crossStackReferencesDefaultStrong',
    'Strong cross-stack references protect the stateful resources the ApiStack imports',
  );

  // Accepted cdk-nag findings with their reasons (the checks run in test/cdk/nag.test.ts).
  suppressApiStackFindings(api);
  suppressStatefulStackFindings(stateful);

  Tags.of(app).add('project', settings.serviceName);
  Tags.of(app).add('managed-by', 'aws-cdk');
  if (settings.environmentName) Tags.of(app).add('environment', settings.environmentName);
  Tags.of(stateful).add('component', 'stateful');
  Tags.of(api).add('component', 'api');

  return { stateful, api };
}
