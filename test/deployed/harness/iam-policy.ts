/**
 * IAM evaluation of one identity policy set for one request, as AWS does it for a role without
 * boundaries or session policies: an explicit Deny wins, otherwise some Allow must match the
 * action, the resource and every condition. Action and resource patterns take `*` and `?`;
 * actions compare case-insensitively, resources case-sensitively.
 */
import type { Json } from './cloud-assembly';

export interface PolicyStatement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: string | string[];
  NotResource?: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

/** One AWS API request as IAM sees it. */
export interface AwsRequest {
  /** `dynamodb:PutItem`, `apigateway:POST`. */
  action: string;
  /** Resource ARNs the request touches; each must be allowed. */
  resources: string[];
  /** Condition keys of the request (`aws:RequestTag/origin`, `aws:ResourceTag/origin`, `aws:TagKeys`). */
  context?: Record<string, string | string[]>;
}

const list = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

const globToRegExp = (pattern: string, flags: string): RegExp =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
    flags,
  );

export const actionMatches = (pattern: string, action: string): boolean => globToRegExp(pattern, 'i').test(action);
export const resourceMatches = (pattern: string, resource: string): boolean => globToRegExp(pattern, '').test(resource);

/** Conditions this checker understands; any other operator never matches (fails closed). */
function conditionHolds(operator: string, key: string, expected: string[], context: Record<string, string | string[]>): boolean {
  const [qualifier, bareOperator] = operator.includes(':') ? (operator.split(':') as [string, string]) : [undefined, operator];
  const ifExists = bareOperator.endsWith('IfExists');
  const base = ifExists ? bareOperator.slice(0, -'IfExists'.length) : bareOperator;
  const actualValue = context[key];
  if (base === 'Null') return (actualValue === undefined) === (expected[0] === 'true');
  if (actualValue === undefined) return ifExists || qualifier === 'ForAllValues';
  const actual = list(actualValue);
  const test = (value: string): boolean => {
    switch (base) {
      case 'StringEquals':
        return expected.includes(value);
      case 'StringNotEquals':
        return !expected.includes(value);
      case 'StringLike':
        return expected.some((pattern) => resourceMatches(pattern, value));
      case 'StringNotLike':
        return !expected.some((pattern) => resourceMatches(pattern, value));
      // ARN operators compare like StringLike for the whole ARN (wildcards allowed in both).
      case 'ArnEquals':
      case 'ArnLike':
        return expected.some((pattern) => resourceMatches(pattern, value));
      case 'ArnNotEquals':
      case 'ArnNotLike':
        return !expected.some((pattern) => resourceMatches(pattern, value));
      default:
        return false;
    }
  };
  if (qualifier === 'ForAllValues') return actual.every(test);
  if (qualifier === 'ForAnyValue') return actual.some(test);
  return actual.length === 1 && test(actual[0]!);
}

function statementApplies(statement: PolicyStatement, action: string, resource: string, context: Record<string, string | string[]>): boolean {
  const actionOk = statement.NotAction
    ? !list(statement.NotAction).some((pattern) => actionMatches(pattern, action))
    : list(statement.Action).some((pattern) => actionMatches(pattern, action));
  if (!actionOk) return false;
  const resourceOk = statement.NotResource
    ? !list(statement.NotResource).some((pattern) => resourceMatches(pattern, resource))
    : list(statement.Resource).some((pattern) => resourceMatches(pattern, resource));
  if (!resourceOk) return false;
  return conditionsHold(statement, context);
}

/** The resources of the request no statement allows (empty: the request is allowed). */
export function deniedResources(statements: readonly PolicyStatement[], request: AwsRequest): string[] {
  const context = request.context ?? {};
  return request.resources.filter((resource) => {
    if (statements.some((statement) => statement.Effect === 'Deny' && statementApplies(statement, request.action, resource, context))) return true;
    return !statements.some((statement) => statement.Effect === 'Allow' && statementApplies(statement, request.action, resource, context));
  });
}

const conditionsHold = (statement: PolicyStatement, context: Record<string, string | string[]>): boolean =>
  Object.entries(statement.Condition ?? {}).every(([operator, keys]) =>
    Object.entries(keys).every(([key, expected]) => conditionHolds(operator, key, list(expected), context)),
  );

/**
 * Whether a role's trust policy lets an AWS service assume it (`sts:AssumeRole` by
 * `Principal.Service`), with the request's condition keys (`aws:SourceAccount`, `aws:SourceArn`).
 */
export function trustAllowsService(trustPolicy: Json, service: string, context: Record<string, string | string[]>): boolean {
  const applies = (statement: PolicyStatement & { Principal?: { Service?: string | string[] } | string }): boolean => {
    const principal = statement.Principal;
    const services = principal === '*' ? ['*'] : list(typeof principal === 'object' ? principal?.Service : undefined);
    return (
      services.some((pattern) => pattern === '*' || pattern === service) &&
      list(statement.Action).some((pattern) => actionMatches(pattern, 'sts:AssumeRole')) &&
      conditionsHold(statement, context)
    );
  };
  const statements = statementsOf(trustPolicy);
  return (
    !statements.some((statement) => statement.Effect === 'Deny' && applies(statement)) &&
    statements.some((statement) => statement.Effect === 'Allow' && applies(statement))
  );
}

/** Statements of a resolved policy document. */
export function statementsOf(document: Json): PolicyStatement[] {
  const statements = (document as { Statement?: Json } | null)?.Statement;
  if (!statements) return [];
  return (Array.isArray(statements) ? statements : [statements]) as unknown as PolicyStatement[];
}
