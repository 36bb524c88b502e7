/**
 * The stateless half: one Lambda function per function definition, one SQS event source per queue
 * consumer, one API per surface of the route manifest (a REST API, or an HTTP API where the
 * surface's `frontDoor` says so: Meta's webhooks), and the API Gateway usage plans.
 * Receives the tables, queues and KMS key of the StatefulStack as props and grants each function
 * exactly what its definition declares. Each part is built by its own module; every resource is
 * created in this stack's scope, so logical ids do not depend on which module builds it.
 */
import { Annotations, CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { wireClickBaseUrl } from './click-links';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import type { Construct } from 'constructs';
import type { ServiceFunction } from './constructs/service-function';
import type { SurfaceApi } from './constructs/surface-api';
import type { HttpSurfaceApi } from './constructs/http-surface-api';
import { ApiFirewall } from './constructs/api-firewall';
import { functions, type FunctionName } from '../runtime-contract/resource-definitions';
import { routes } from '../runtime-contract/all-routes';
import { surfaces, type HttpApiSurfaceName, type RestApiSurfaceName, type SurfaceName } from '../runtime-contract/route-manifest';
import { createServiceFunctions } from './service-functions';
import { addQueueEventSources, assertEventSourceVisibility } from './queue-event-sources';
import { createBroadcastScheduling } from './broadcast-scheduling';
import { createHttpSurfaceApis, createSurfaceApis, frontDoorsOf, type FrontDoor } from './surface-apis';
import { allowApiKeyManagement, broadcastPlanSurfaces, createBroadcastUsagePlan } from './broadcast-usage-plan';
import type { PlatformSettings } from './settings';
import type { StatefulResources } from './stateful-stack';
import { stackOutputNames } from './stack-outputs';
import { wirePeopleSignIn } from './people-sign-in';

export interface ApiStackProps extends StackProps {
  stateful: StatefulResources;
  settings: PlatformSettings;
  /** Create the region-wide API Gateway CloudWatch role (needed for stage logging). Default true. */
  manageApiGatewayAccountRole?: boolean;
  /** Directory the Lambda entry paths are relative to. Default: the repository root. */
  entryRoot?: string;
}

export class ApiStack extends Stack {
  readonly functions: Record<FunctionName, ServiceFunction>;
  /** The REST APIs, one per `rest-api` surface. */
  readonly surfaceApis: Record<RestApiSurfaceName, SurfaceApi>;
  /** The HTTP APIs, one per `http-api` surface (Meta's webhooks). */
  readonly httpSurfaceApis: Record<HttpApiSurfaceName, HttpSurfaceApi>;
  /** Every surface's front door, either kind. */
  readonly frontDoors: Record<SurfaceName, FrontDoor>;
  readonly broadcastUsagePlan: apigateway.UsagePlan;
  /** The campaign console's public app client of the people user pool (docs/PEOPLE.md "On AWS"). */
  readonly consoleSignInClient: cognito.UserPoolClient;
  /** Absent only with `-c skipFirewall=true` (LocalStack without WAFv2). */
  readonly firewall?: ApiFirewall;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    const { stateful, settings, entryRoot, manageApiGatewayAccountRole, ...stackProps } = props;
    super(scope, id, {
      description: 'WhatsApp business-messaging platform: Lambda functions, REST and HTTP APIs and usage plans (stateless)',
      ...stackProps,
    });

    assertEventSourceVisibility(stateful);
    this.functions = createServiceFunctions(this, stateful, settings, entryRoot);
    addQueueEventSources(this.functions, stateful);
    createBroadcastScheduling(this, this.functions, settings);

    const keyedSurfaces = broadcastPlanSurfaces();
    this.surfaceApis = createSurfaceApis(this, {
      serviceFunctions: this.functions,
      settings,
      keyedSurfaces,
      manageApiGatewayAccountRole: manageApiGatewayAccountRole !== false,
    });
    this.httpSurfaceApis = createHttpSurfaceApis(this, { serviceFunctions: this.functions, settings });
    this.frontDoors = frontDoorsOf(this.surfaceApis, this.httpSurfaceApis);
    wireClickBaseUrl(this, this.functions, this.frontDoors.clicks);
    this.broadcastUsagePlan = createBroadcastUsagePlan(this, this.surfaceApis, keyedSurfaces);
    // No v1 usage plans: a usage plan meters only `x-api-key` keys, and v1 keys are Bearer tokens that
    // no plan could ever be associated with. The per-plan limits are enforced exactly in the
    // application (route class `v1-plan`, DynamoDB sliding windows); see docs/ORGANIZATIONS-AND-V1.md.
    for (const name of Object.keys(functions) as FunctionName[]) {
      if (functions[name].managesApiKeys) allowApiKeyManagement(this, this.functions[name], this.broadcastUsagePlan);
    }
    // People sign in with the stack's user pool (or an external issuer): the console's client, PEOPLE_OIDC_ISSUERS on every function.
    this.consoleSignInClient = wirePeopleSignIn(this, {
      serviceFunctions: this.functions,
      userPool: stateful.peopleUserPool,
      broadcastApi: this.surfaceApis.broadcast,
      externalIssuers: settings.people.issuers,
    });
    this.addApiOutputs();

    // Protected (docs/OPERATIONS.md): WAF on every REST stage (an HTTP API takes none). The alarms and
    // dashboard that watch this stack live in the OperationsStack (lib/operations-stack.ts).
    this.firewall = this.createFirewall(settings);
  }

  private addApiOutputs(): void {
    for (const surfaceName of Object.keys(surfaces) as SurfaceName[]) {
      new CfnOutput(this, stackOutputNames.surfaceUrl(surfaceName), {
        value: this.frontDoors[surfaceName].urlOf(surfaces[surfaceName].basePath),
        description: `${surfaces[surfaceName].description}: base URL (stage and basePath included)`,
      });
    }
    new CfnOutput(this, stackOutputNames.broadcastUsagePlan, { value: this.broadcastUsagePlan.usagePlanId, description: 'Usage plan of broadcast API keys' });
  }

  private createFirewall(settings: PlatformSettings): ApiFirewall | undefined {
    if (settings.skipFirewall) {
      Annotations.of(this).addWarningV2('platform:firewallSkipped', 'skipFirewall: no WAF web ACL on any stage (LocalStack only; never deploy this to AWS)');
      return undefined;
    }
    return new ApiFirewall(this, 'Firewall', {
      surfaceApis: this.surfaceApis,
      routesOf: (surface) => routes.filter((route) => route.surface === surface),
      limits: settings.firewall,
      namePrefix: this.stackName,
    });
  }
}
