/**
 * The cdk-nag (AwsSolutions) findings the platform accepts, each at the narrowest scope and with
 * its reason. Everything else is fixed in the constructs; `test/cdk/nag.test.ts` fails on any
 * finding not listed here. docs/OPERATIONS.md "cdk-nag".
 *
 * The StatefulStack's tables, queues and key need none (point-in-time recovery, SSL-only policies and
 * dead-letter queues, a rotating KMS key); its people user pool has two, below.
 */
import { NagSuppressions } from 'cdk-nag';
import type { ApiStack } from './api-stack';
import type { StatefulStack } from './stateful-stack';

/**
 * The people user pool (docs/PEOPLE.md "On AWS", docs/OPERATIONS.md "People"): MFA offered, not
 * forced, and the Essentials feature plan.
 */
export function suppressStatefulStackFindings(stateful: StatefulStack): void {
  NagSuppressions.addResourceSuppressions(stateful.peopleUserPool, [
    {
      id: 'AwsSolutions-COG2',
      reason:
        'MFA is OPTIONAL with TOTP as the issue asks: each person turns on an authenticator app at the hosted sign-in; invitation only (no self sign-up), passwords of 12+ characters with every class. An organization that must enforce MFA signs its people in through its own issuer (peopleIssuers context), whose policy applies.',
    },
    {
      id: 'AwsSolutions-COG8',
      reason:
        "Essentials plan, not Plus (threat protection: compromised-credential and adaptive risk checks, billed per monthly active user on top of Essentials). The pool holds a handful of invited staff per organization, each request's membership is re-read so a removed person is refused at once, and removal ends their sessions; moving to Plus is the one featurePlan property in lib/people-user-pool.ts.",
    },
  ]);
}

/** Suppressions of the ApiStack: per function, per REST API, and the account-level logging role. */
export function suppressApiStackFindings(api: ApiStack): void {
  suppressFunctionFindings(api);
  suppressRestApiFindings(api);
  suppressHttpApiFindings(api);
  suppressAccountRoleFindings(api);
}

function suppressFunctionFindings(api: ApiStack): void {
  for (const fn of Object.values(api.functions)) {
    NagSuppressions.addResourceSuppressions(fn, [
      {
        id: 'AwsSolutions-L1',
        reason:
          'Node.js 22 is chosen: esbuild targets node22, and the tests, the local runtime and the benches run on it. Moving to a newer runtime is a deliberate upgrade of all of them, not a template change.',
      },
    ]);
    // The role's DefaultPolicy holds the grants the stack adds from the function's definition.
    NagSuppressions.addResourceSuppressions(
      fn.role!,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: 'X-Ray tracing (tracing: ACTIVE): xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions.',
          appliesTo: ['Resource::*'],
        },
        {
          id: 'AwsSolutions-IAM5',
          reason:
            "Queries by global secondary index: <table ARN>/index/* names only the indexes of a table this function is already granted (the definition's table access), never another table.",
          appliesTo: [{ regex: '/^Resource::.+/index/\\*$/g' }],
        },
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'Issuing broadcast API keys (managesApiKeys): a key id is minted by API Gateway at creation, so keys and their usage-plan membership can only be named by wildcard under /apikeys and the broadcast plan.',
          appliesTo: [{ regex: '/^Resource::arn:<AWS::Partition>:apigateway:[^:]*::/(apikeys|usageplans/.+/keys)/\\*$/g' }],
        },
        {
          id: 'AwsSolutions-IAM5',
          reason:
            "Scheduled broadcasts (schedulesFirings): one one-time schedule per job, named after a job id only known at accept time, so schedules are named by wildcard within the platform's own schedule group (<group>/*), never another group.",
          appliesTo: [{ regex: '/^Resource::arn:<AWS::Partition>:scheduler:[^:]*:[^:]*:schedule/.+-broadcasts/\\*$/g' }],
        },
      ],
      true,
    );
  }
}

function suppressRestApiFindings(api: ApiStack): void {
  for (const surfaceApi of Object.values(api.surfaceApis)) {
    NagSuppressions.addResourceSuppressions(surfaceApi.api, [
      {
        id: 'AwsSolutions-APIG2',
        reason:
          "Requests are validated in each group's function (valibot), which answers in the surface's contract error body; a gateway request validator would answer 400 in API Gateway's own shape and change contract answers.",
      },
    ]);
    NagSuppressions.addResourceSuppressions(
      surfaceApi.api,
      [
        {
          id: 'AwsSolutions-APIG4',
          reason:
            "Callers are authenticated by the group's function (broadcast API keys also by the usage plan through the keyed methods' request authorizer, people's tokens by the authorizer and again by the function, organization/upstream/v1 Bearer tokens stored as hashes, Meta's HMAC signature on webhooks); health, generate-key, the docs and the console's files are public by contract. docs/ARCHITECTURE.md \"Authentication in the Lambda, API keys at the gateway\".",
        },
        {
          id: 'AwsSolutions-COG4',
          reason:
            "The keyed methods take an x-api-key from back ends or a person's token from the stack's user pool or an external OpenID Connect issuer (peopleIssuers): a Cognito authorizer accepts one pool's tokens only, so a Lambda REQUEST authorizer names the usage key and the function verifies every credential (docs/PEOPLE.md \"On AWS\"); the other surfaces take server-side Bearer tokens checked in the function.",
        },
      ],
      true,
    );
  }
}

/**
 * The HTTP API surfaces (Meta's webhooks): their routes have no authorizer, as Meta sends no
 * credential the gateway could check; the function verifies Meta's HMAC signature over the raw body
 * before any other work.
 */
function suppressHttpApiFindings(api: ApiStack): void {
  for (const surfaceApi of Object.values(api.httpSurfaceApis)) {
    NagSuppressions.addResourceSuppressions(
      surfaceApi.api,
      [
        {
          id: 'AwsSolutions-APIG4',
          reason:
            'Meta\'s webhooks carry no credential an authorizer could check: the meta-webhook function verifies the X-Hub-Signature-256 HMAC of the raw body with the platform\'s app secret before any other work (docs/DELIVERY-STATUS.md "Webhook endpoint").',
        },
      ],
      true,
    );
  }
}

function suppressAccountRoleFindings(api: ApiStack): void {
  const accountRole = api.node.tryFindChild('ApiGatewayCloudWatchRole');
  if (accountRole) {
    NagSuppressions.addResourceSuppressions(accountRole, [
      {
        id: 'AwsSolutions-IAM4',
        reason:
          "AmazonAPIGatewayPushToCloudWatchLogs is AWS's policy for exactly this account-level role: API Gateway creates and names the execution log groups of every API in the region itself.",
        appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs'],
      },
    ]);
  }
}
