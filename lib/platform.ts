/**
 * Assembles the three stacks (stateful, API, operations). Used by `bin/app.ts` and by the CDK tests, so both synthesize the
 * same thing from the same settings.
 */
import { Annotations, Tags, type App } from 'aws-cdk-lib';
import { ApiStack } from './api-stack';
import { suppressApiStackFindings, suppressStatefulStackFindings } from './nag-suppressions';
import type { PlatformSettings } from './settings';
import { OperationsStack } from './operations-stack';
import { StatefulStack } from './stateful-stack';

export interface Platform {
  stateful: StatefulStack;
  api: ApiStack;
  /** Alarms, their topic and the dashboard: a stack of their own (CloudFormation's 500 resources per stack). */
  operations: OperationsStack;
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

  const operations = new OperationsStack(app, 'OperationsStack', {
    stackName: `${prefix}-Operations`,
    env,
    api,
    stateful,
    settings,
  });

  // Strong references (CloudFormation exports) are intended: they stop a StatefulStack update from
  // removing a table, queue or key the ApiStack still uses.
  Annotations.of(api).acknowledgeWarning(
    '@aws-cdk/core:crossStackReferencesDefaultStrong',
    'Strong cross-stack references protect the stateful resources the ApiStack imports',
  );
  Annotations.of(operations).acknowledgeWarning(
    '@aws-cdk/core:crossStackReferencesDefaultStrong',
    'Strong cross-stack references keep every watched function, API and queue while an alarm names it',
  );

  // Accepted cdk-nag findings with their reasons (the checks run in test/cdk/nag.test.ts).
  suppressApiStackFindings(api);
  suppressStatefulStackFindings(stateful);

  Tags.of(app).add('project', settings.serviceName);
  Tags.of(app).add('managed-by', 'aws-cdk');
  if (settings.environmentName) Tags.of(app).add('environment', settings.environmentName);
  Tags.of(stateful).add('component', 'stateful');
  Tags.of(api).add('component', 'api');
  Tags.of(operations).add('component', 'operations');

  return { stateful, api, operations };
}
