/**
 * People's sign-in on the ApiStack (docs/PEOPLE.md "On AWS"): the console's public app client of the
 * people user pool (authorization code + PKCE, its callback and sign-out address the console page of
 * the broadcast REST API), the issuers every function accepts (PEOPLE_OIDC_ISSUERS: the pool first,
 * then the `peopleIssuers` context's), and the account rights of the functions that manage people.
 */
import { CfnOutput, Duration, Stack } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as iam from 'aws-cdk-lib/aws-iam';
import { functions, type FunctionName } from '../runtime-contract/resource-definitions';
import { resourcePath, serviceRoutes, surfaces } from '../runtime-contract/route-manifest';
import type { PeopleIssuer } from '../shared/config/app-config';
import type { ServiceFunction } from './constructs/service-function';
import type { SurfaceApi } from './constructs/surface-api';
import { stackOutputNames } from './stack-outputs';

export interface PeopleSignInProps {
  serviceFunctions: Record<FunctionName, ServiceFunction>;
  userPool: cognito.IUserPool;
  /** The broadcast surface's REST API, which serves the console page. */
  broadcastApi: SurfaceApi;
  /** External issuers accepted after the pool (`-c peopleIssuers`). */
  externalIssuers: readonly PeopleIssuer[];
}

/** What a people-managing function may do to the pool's accounts (invite, read, end sessions, delete). */
export const peopleManagementActions = [
  'cognito-idp:AdminCreateUser',
  'cognito-idp:AdminGetUser',
  'cognito-idp:AdminUserGlobalSignOut',
  'cognito-idp:AdminDeleteUser',
];

/**
 * The client, the issuers' variable on every function, the rights of `managesPeople` functions, and
 * the outputs (console URL, client id).
 *
 * @example
 * const client = wirePeopleSignIn(apiStack, { serviceFunctions, userPool, broadcastApi, externalIssuers: [] });
 */
export function wirePeopleSignIn(stack: Stack, props: PeopleSignInProps): cognito.UserPoolClient {
  const consoleUrl = consolePageUrl(stack, props.broadcastApi);
  const client = new cognito.UserPoolClient(stack, 'ConsoleSignInClient', {
    userPool: props.userPool,
    userPoolClientName: 'campaign-console',
    // A browser page keeps no secret: a public client, its code exchanged with PKCE.
    generateSecret: false,
    // SRP only (what the hosted sign-in uses) and refresh: no plain-password flow for this client.
    authFlows: { userSrp: true },
    oAuth: {
      flows: { authorizationCodeGrant: true },
      scopes: [cognito.OAuthScope.OPENID, cognito.OAuthScope.EMAIL, cognito.OAuthScope.PROFILE],
      callbackUrls: [consoleUrl],
      logoutUrls: [consoleUrl],
    },
    supportedIdentityProviders: [cognito.UserPoolClientIdentityProvider.COGNITO],
    accessTokenValidity: Duration.hours(1),
    idTokenValidity: Duration.hours(1),
    // A working day's session at most; the console's idle sign-out comes first.
    refreshTokenValidity: Duration.hours(8),
    preventUserExistenceErrors: true,
    enableTokenRevocation: true,
  });
  const poolIssuer: PeopleIssuer = {
    issuer: `https://cognito-idp.${stack.region}.${stack.urlSuffix}/${props.userPool.userPoolId}`,
    audience: client.userPoolClientId,
    userInfo: true,
  };
  const issuers = stack.toJsonString([poolIssuer, ...props.externalIssuers]);
  for (const name of Object.keys(functions) as FunctionName[]) {
    const fn = props.serviceFunctions[name];
    fn.addEnvironment('PEOPLE_OIDC_ISSUERS', issuers);
    if (functions[name].managesPeople) allowPeopleManagement(fn, props.userPool);
  }
  new CfnOutput(stack, stackOutputNames.consoleUrl, { value: consoleUrl, description: 'The campaign console (sign in with the people user pool)' });
  new CfnOutput(stack, stackOutputNames.consoleSignInClient, {
    value: client.userPoolClientId,
    description: "The console's app client of the people user pool",
  });
  return client;
}

/**
 * `https://<api id>.execute-api.<region>.<suffix>/prod/api/v2/console`, from the API's id and the
 * surface's stage name, not the stage resource: the stage waits for the methods, the methods for the
 * authorizer function, whose environment names this client (a cycle otherwise).
 */
function consolePageUrl(stack: Stack, broadcastApi: SurfaceApi): string {
  const consoleRoute = serviceRoutes.find((route) => route.group === 'console' && route.operation === 'consolePage');
  if (!consoleRoute) throw new Error('Route manifest: no console page route (group console, operation consolePage)');
  return `https://${broadcastApi.api.restApiId}.execute-api.${stack.region}.${stack.urlSuffix}/${surfaces[consoleRoute.surface].stage}${resourcePath(consoleRoute)}`;
}

/** `PEOPLE_USER_POOL_ID` and the four account actions on this pool only. */
function allowPeopleManagement(fn: ServiceFunction, userPool: cognito.IUserPool): void {
  fn.addEnvironment('PEOPLE_USER_POOL_ID', userPool.userPoolId);
  fn.addToRolePolicy(new iam.PolicyStatement({ sid: 'ManagePeopleAccounts', actions: peopleManagementActions, resources: [userPool.userPoolArn] }));
}
