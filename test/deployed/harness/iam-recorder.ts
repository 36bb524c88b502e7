/**
 * IAM checked by use. Each function gets its own AWS endpoint (every `*_ENDPOINT` variable of
 * its environment names it): a small proxy that records every request as action and resource
 * ARNs, checks it against the function's role policy from the template, and then either
 * forwards it to the emulator of its service or answers `AccessDeniedException` as AWS would.
 * A denial is also kept as a violation naming function, action and resource.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { awsCallOf, passedRoles, type ResourceTags, type WireRequest } from './aws-wire-call';
import { readBody } from './control-plane-emulators';
import { deniedResources, type PolicyStatement } from './iam-policy';

export interface RecordedCall {
  functionName: string;
  action: string;
  resources: string[];
  denied: string[];
}

export class IamLedger {
  readonly calls: RecordedCall[] = [];

  record(call: RecordedCall): void {
    this.calls.push(call);
  }

  violations(): RecordedCall[] {
    return this.calls.filter((call) => call.denied.length > 0);
  }

  /** One line per missing grant: `function: action on resource`. */
  describeViolations(): string[] {
    return [...new Set(this.violations().flatMap((call) => call.denied.map((resource) => `${call.functionName}: ${call.action} on ${resource}`)))];
  }

  /** What each function used, as `action resource` lines (the grant-narrowing evidence). */
  usage(): Record<string, string[]> {
    const usage: Record<string, Set<string>> = {};
    for (const call of this.calls) for (const resource of call.resources) (usage[call.functionName] ??= new Set()).add(`${call.action} ${resource}`);
    return Object.fromEntries(Object.entries(usage).map(([name, lines]) => [name, [...lines].sort()]));
  }
}

/** Checks one wire request of a function against its statements; the IAM core of the proxy. */
export function checkWireRequest(functionName: string, statements: readonly PolicyStatement[], request: WireRequest, tags: ResourceTags): RecordedCall {
  const call = awsCallOf(request, tags);
  const denied = deniedResources(statements, call);
  for (const role of passedRoles(call, request)) {
    if (deniedResources(statements, { action: 'iam:PassRole', resources: [role] }).length > 0) denied.push(`${role} (iam:PassRole)`);
  }
  return { functionName, action: call.action, resources: call.resources, denied };
}

export interface AwsEndpointProxy {
  endpoint: string;
  stop(): Promise<void>;
}

/** The endpoint of one function: checks, records, forwards to `upstreamOf(service)`. */
export async function startAwsEndpointProxy(options: {
  functionName: string;
  statements: readonly PolicyStatement[];
  ledger: IamLedger;
  tags: ResourceTags;
  upstreamOf: (service: string) => string | undefined;
}): Promise<AwsEndpointProxy> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer((req, res) => {
    void readBody(req).then((body) => {
      const wire: WireRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body };
      const call = checkWireRequest(options.functionName, options.statements, wire, options.tags);
      options.ledger.record(call);
      const service = /Credential=[^/]+\/[^/]+\/[^/]+\/([^/]+)\//.exec(String(req.headers.authorization ?? ''))?.[1] ?? 'unknown';
      if (call.denied.length > 0) {
        const message = `User: arn:aws:sts::000000000000:assumed-role/${options.functionName}-role/${options.functionName} is not authorized to perform: ${call.action} on resource: ${call.denied[0]} because no identity-based policy allows the ${call.action} action`;
        res.writeHead(service === 'apigateway' ? 403 : 400, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-errortype': 'AccessDeniedException' });
        res.end(JSON.stringify({ __type: 'AccessDeniedException', message, Message: message }));
        return;
      }
      const upstream = options.upstreamOf(service);
      if (!upstream) {
        res.writeHead(501, { 'content-type': 'application/json', 'x-amzn-errortype': 'NotImplemented' });
        res.end(JSON.stringify({ __type: 'NotImplemented', message: `no local emulator for ${service} (${call.action})` }));
        return;
      }
      const target = new URL(upstream);
      const forward = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host }, agent },
        (answer) => {
          res.writeHead(answer.statusCode ?? 500, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => {
        if (!res.headersSent) res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ __type: 'ServiceUnavailable', message: 'emulator unreachable' }));
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
