/**
 * In-process CPU profiling (the same V8 sampling profiler `node --cpu-prof` uses, driven through
 * node:inspector so it can be switched on around one phase), and a summary of where the time went.
 *
 * Everything of the local stack shares this process's thread: the emulators (dynalite, fauxqs),
 * the Cloud API sandbox, the local gateway, the bench's own client and the Lambda handlers. Each
 * sample gets a role from the innermost frame that belongs to a known part: `harness: ...` (what
 * would not run in Lambda) or `platform: ...` (what would: handler code, its libraries, the AWS SDK,
 * the HTTP client). Platform samples are also grouped by the innermost frame with a source (a
 * package, a project file, or a native builtin like JSON.parse).
 */
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  wallMs: number;
  sampledMs: number;
  byRole: Array<{ role: string; ms: number; share: number }>;
  /** Within the platform's own code: innermost component with a source. */
  platformComponents: Array<{ component: string; ms: number; share: number }>;
  topFunctions: Array<{ function: string; role: string; selfMs: number }>;
}

const post = <T>(session: Session, method: string, params?: object): Promise<T> =>
  new Promise((resolve, reject) => session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result as T))));

export async function profile<T>(work: () => Promise<T>, samplingIntervalUs = 250): Promise<{ result: T; profile: CpuProfile }> {
  const session = new Session();
  session.connect();
  try {
    await post(session, 'Profiler.enable');
    await post(session, 'Profiler.setSamplingInterval', { interval: samplingIntervalUs });
    await post(session, 'Profiler.start');
    const result = await work();
    const { profile: cpuProfile } = await post<{ profile: CpuProfile }>(session, 'Profiler.stop');
    return { result, profile: cpuProfile };
  } finally {
    session.disconnect();
  }
}

/**
 * Owner of a sample: the innermost frame (leaf first) that belongs to a known part. Leaf-first, so
 * valibot inside fauxqs is fauxqs, and SDK code called by a repository is the SDK.
 */
const owners: Array<[RegExp, string]> = [
  [/node_modules\/(dynalite|level|memory-level|abstract-level|level-[^/]+|lazy|big\.js|lock|buffer-crc32|async)\//, 'harness: dynalite (DynamoDB emulator)'],
  [
    /node_modules\/(fauxqs|fastify|@fastify\/[^/]+|avvio|find-my-way|light-my-request|toad-cache|pino[^/]*|fast-json-stringify|secure-json-parse)\//,
    'harness: fauxqs (SQS emulator)',
  ],
  [/\/sandbox\//, 'harness: Cloud API sandbox'],
  [/\/bench\//, 'harness: bench client (fetch, keys, counters)'],
  [/\/local\/gateway\//, 'harness: local gateway (API Gateway stand-in)'],
  [/\/local\/sqs-event-source/, 'harness: SQS event source (Lambda ESM stand-in)'],
  [/node:_http_server/, 'harness: HTTP server internals (the in-process servers)'],
  [/\/(functions|shared)\//, 'platform: handler code'],
  [/node_modules\/(@aws-sdk|@smithy)\//, 'platform: AWS SDK'],
  [/node_modules\/(@aws-lambda-powertools|@middy|valibot)\//, 'platform: libraries (Powertools, middy, valibot)'],
  [/node:(_http_client|_http_agent|internal\/deps\/undici|net|internal\/http)/, 'platform: HTTP client internals (SDK, fetch)'],
];

function componentOf(frame: CallFrame, projectRoot: string): string | undefined {
  const { url, functionName } = frame;
  if (url === '') return functionName && !functionName.startsWith('(') ? `${functionName} (native)` : undefined;
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (packageMatch) {
    const name = packageMatch[1]!;
    return name.startsWith('@aws-sdk/') || name.startsWith('@smithy/') ? 'AWS SDK (@aws-sdk, @smithy)' : name;
  }
  if (url.startsWith('node:')) return 'node internals (http, streams, undici, crypto)';
  const path = url.replace(/^file:\/\//, '');
  if (path.startsWith(projectRoot)) return path.slice(projectRoot.length + 1);
  return url;
}

export function summarizeProfile(cpuProfile: CpuProfile, projectRoot: string, top = 15): ProfileSummary {
  const byId = new Map(cpuProfile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of cpuProfile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

  const roleMs = new Map<string, number>();
  const componentMs = new Map<string, number>();
  const functionMs = new Map<string, { role: string; ms: number }>();
  const cache = new Map<number, { role: string; component: string }>();

  const classify = (nodeId: number): { role: string; component: string } => {
    const known = cache.get(nodeId);
    if (known) return known;
    const leaf = byId.get(nodeId)!;
    let answer: { role: string; component: string };
    if (leaf.callFrame.functionName === '(idle)') answer = { role: 'idle (waiting on I/O or timers)', component: 'idle' };
    else if (leaf.callFrame.functionName === '(garbage collector)') answer = { role: 'garbage collection (all parts)', component: 'gc' };
    else if (leaf.callFrame.functionName === '(program)') answer = { role: 'V8/native, no JS stack', component: 'program' };
    else {
      let role: string | undefined;
      let component: string | undefined;
      for (let id: number | undefined = nodeId; id !== undefined && role === undefined; id = parentOf.get(id)) {
        const frame = byId.get(id)!.callFrame;
        component ??= componentOf(frame, projectRoot);
        role = owners.find(([pattern]) => pattern.test(frame.url))?.[1];
      }
      answer = { role: role ?? 'other (node internals without an owner frame)', component: component ?? 'unknown' };
    }
    cache.set(nodeId, answer);
    return answer;
  };

  let sampledUs = 0;
  cpuProfile.samples.forEach((nodeId, index) => {
    // The first delta runs from Profiler.start's own dispatch to the first sample: not the workload.
    const us = index === 0 ? 0 : (cpuProfile.timeDeltas[index] ?? 0);
    sampledUs += us;
    const { role, component } = classify(nodeId);
    roleMs.set(role, (roleMs.get(role) ?? 0) + us / 1000);
    if (role.startsWith('platform')) componentMs.set(component, (componentMs.get(component) ?? 0) + us / 1000);
    const frame = byId.get(nodeId)!.callFrame;
    // No line numbers: tsx transforms the sources without keeping lines.
    const name = `${frame.functionName || '(anonymous)'} [${componentOf(frame, projectRoot) ?? ''}]`;
    const entry = functionMs.get(name) ?? { role, ms: 0 };
    entry.ms += us / 1000;
    functionMs.set(name, entry);
  });
  const platformMs = [...componentMs.values()].reduce((sum, value) => sum + value, 0);
  const sorted = <K extends string>(map: Map<string, number>, key: K, total: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .map(([name, value]) => ({ [key]: name, ms: value, share: value / total }) as { [P in K]: string } & { ms: number; share: number });
  return {
    wallMs: (cpuProfile.endTime - cpuProfile.startTime - (cpuProfile.timeDeltas[0] ?? 0)) / 1000,
    sampledMs: sampledUs / 1000,
    byRole: sorted(roleMs, 'role', sampledUs / 1000),
    platformComponents: sorted(componentMs, 'component', platformMs).slice(0, top),
    topFunctions: [...functionMs]
      .filter(([, value]) => !value.role.startsWith('idle'))
      .sort((a, b) => b[1].ms - a[1].ms)
      .slice(0, top)
      .map(([name, value]) => ({ function: name, role: value.role, selfMs: value.ms })),
  };
}

export function saveProfile(cpuProfile: CpuProfile, file: string): void {
  writeFileSync(file, JSON.stringify(cpuProfile));
}
