/**
 * The third stack: what watches the platform. Alarms for every function, queue and API, their SNS
 * topic and the operations dashboard, all derived from the definitions (lib/constructs/platform-alarms.ts,
 * docs/OPERATIONS.md "Alarms").
 *
 * Why a stack of its own: CloudFormation takes at most 500 resources per stack. The ApiStack holds one
 * function, role, policy and log groups per function group and every API's resources and methods;
 * with the click redirect's API (issue 38) it passed 500. Alarms (over 80) are the part that only
 * reads the others, so they move without a reference loop: this stack imports the functions' and
 * APIs' names from the ApiStack and the queues' from the StatefulStack, and nothing imports from it.
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { ApiStack } from './api-stack';
import { PlatformAlarms } from './constructs/platform-alarms';
import type { PlatformSettings } from './settings';
import type { StatefulResources } from './stateful-stack';

export interface OperationsStackProps extends StackProps {
  api: ApiStack;
  stateful: StatefulResources;
  settings: PlatformSettings;
}

export class OperationsStack extends Stack {
  readonly observability: PlatformAlarms;

  constructor(scope: Construct, id: string, props: OperationsStackProps) {
    const { api, stateful, settings, ...stackProps } = props;
    super(scope, id, {
      description: 'WhatsApp business-messaging platform: alarms, their SNS topic and the operations dashboard (stateless)',
      ...stackProps,
    });
    this.observability = new PlatformAlarms(this, 'Observability', {
      functions: api.functions,
      queues: stateful.queues,
      deadLetterQueues: stateful.deadLetterQueues,
      frontDoors: api.frontDoors,
      alarmEmail: settings.alarmEmail,
      metricsNamespace: settings.metricsNamespace,
      // The dashboard keeps the name it had in the ApiStack.
      dashboardName: `${api.stackName}-operations`,
    });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.observability.topic.topicArn, description: 'SNS topic every alarm notifies' });
  }
}
