/**
 * The people's identity provider on AWS (docs/PEOPLE.md "On AWS"): a Cognito user pool and its
 * hosted sign-in domain, in the stateful stack. The pool holds people's accounts, passwords and MFA
 * devices, which no redeploy can recreate, so it is retained and deletion-protected like the tables;
 * the console's app client, which only names addresses of the stateless API, lives in the ApiStack
 * (lib/people-sign-in.ts).
 */
import { CfnOutput, Duration, Fn, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { stackOutputNames } from './stack-outputs';

export interface PeopleUserPool {
  userPool: cognito.UserPool;
  domain: cognito.UserPoolDomain;
}

/** Cognito refuses prefixes naming these, and longer than 63 characters. */
const reservedInPrefix = /aws|amazon|cognito/;

/**
 * The pool (email sign-in, invitation only, password policy, optional TOTP MFA) and its domain:
 * `cognitoDomainPrefix` when given, else the stack's name with the first part of its stack id
 * (unique per deployment, stable across updates).
 *
 * @example
 * const { userPool, domain } = createPeopleUserPool(statefulStack, { domainPrefix: 'acme-campaigns' });
 */
export function createPeopleUserPool(stack: Stack, options: { domainPrefix?: string }): PeopleUserPool {
  const userPool = new cognito.UserPool(stack, 'PeopleUserPool', {
    userPoolName: `${stack.stackName}-people`,
    signInAliases: { email: true },
    signInCaseSensitive: false,
    // People are invited by an organization's admin (POST /people, `wa-admin invite-person`); nobody signs up.
    selfSignUpEnabled: false,
    autoVerify: { email: true },
    standardAttributes: { email: { required: true, mutable: true } },
    passwordPolicy: {
      minLength: 12,
      requireLowercase: true,
      requireUppercase: true,
      requireDigits: true,
      requireSymbols: true,
      tempPasswordValidity: Duration.days(7),
    },
    mfa: cognito.Mfa.OPTIONAL,
    mfaSecondFactor: { sms: false, otp: true },
    accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
    featurePlan: cognito.FeaturePlan.ESSENTIALS,
    userInvitation: {
      emailSubject: 'You are invited to the campaign console',
      emailBody: 'Sign in to the campaign console with {username} and the temporary password {####}; you will choose your own password.',
    },
    removalPolicy: RemovalPolicy.RETAIN,
    deletionProtection: true,
  });
  const domain = userPool.addDomain('PeopleSignInDomain', { cognitoDomain: { domainPrefix: domainPrefixOf(stack, options.domainPrefix) } });
  new CfnOutput(stack, stackOutputNames.peopleUserPool, {
    value: userPool.userPoolId,
    description: 'Cognito user pool of the people who sign in to the console (PEOPLE_USER_POOL_ID)',
  });
  new CfnOutput(stack, stackOutputNames.peopleSignInDomain, { value: domain.baseUrl(), description: 'Hosted sign-in domain of the people user pool' });
  return { userPool, domain };
}

function domainPrefixOf(stack: Stack, configured: string | undefined): string {
  if (configured !== undefined) {
    if (!/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(configured) || reservedInPrefix.test(configured)) {
      throw new Error(
        `Context value cognitoDomainPrefix must be 1-63 lowercase letters, digits and hyphens, not naming aws, amazon or cognito; got ${configured}`,
      );
    }
    return configured;
  }
  const base = stack.stackName
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .replace(/aws|amazon|cognito/g, 'x')
    .slice(0, 50);
  // arn:…:stack/<name>/<uuid>: the uuid's first 8 hex digits.
  const stackIdPart = Fn.select(0, Fn.split('-', Fn.select(2, Fn.split('/', stack.stackId))));
  return Fn.join('-', [base, stackIdPart]);
}
