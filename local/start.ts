/**
 * `npm start`: the whole service on this machine. Ctrl-C stops everything cleanly.
 *
 * Settings (environment): PORT (gateway, default 3000), SANDBOX_PORT (default 4010), IDENTITY_PORT
 * (the local OpenID Connect provider, default 4020),
 * LOCAL_BACKEND=embedded|external (external: use DYNAMODB_ENDPOINT / SQS_ENDPOINT /
 * GRAPH_API_BASE_URL and the table/queue names from the environment, e.g. LocalStack),
 * LOCAL_DATA_DIR (default .local), LOCAL_ISOLATION=threads|inline (default threads: each function in
 * its own worker thread, the emulators in another; docs/ARCHITECTURE.md "Isolation"), LOG_FORMAT=pretty|json
 * and LOG_LEVEL=DEBUG|INFO|WARN|ERROR (default: one line per request and per job event, every
 * warning and error; local/local-log-lines.ts).
 */
import { isolationFromEnvironment, startLocalRuntime } from './local-runtime';
import { bannerFor } from './banner';
import { formatLocalLogLine, formatRequestLine, localLogSettings, powertoolsLevelOf } from './local-log-lines';

// Node 20 is supported for local runs (Lambdas run Node 22); the SDK's upgrade notice is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

async function main(): Promise<void> {
  const startedAt = performance.now();
  const logs = localLogSettings(process.env);
  // The functions log at Powertools' level; concise needs their INFO job lines, filtered below.
  process.env.POWERTOOLS_LOG_LEVEL ??= powertoolsLevelOf(logs.level);
  let ready = false;
  const duringBoot: string[] = [];
  const print = (line: string | undefined) => {
    if (line === undefined) return;
    // What boot logs (a warning while seeding) would land above the banner: printed under it.
    if (ready) process.stdout.write(`${line}\n`);
    else duringBoot.push(line);
  };
  const pretty = logs.format === 'pretty';
  const runtime = await startLocalRuntime({
    ...(pretty
      ? {
          onLogLine: (functionName: string, line: string) => print(formatLocalLogLine(functionName, line, logs.level)),
          onRequest: (info: Parameters<typeof formatRequestLine>[0]) => print(formatRequestLine(info)),
        }
      : {}),
    port: Number(process.env.PORT ?? 3000),
    sandboxPort: Number(process.env.SANDBOX_PORT ?? 4010),
    identityPort: Number(process.env.IDENTITY_PORT ?? 4020),
    dataDirectory: process.env.LOCAL_DATA_DIR ?? '.local',
    persist: true,
    backend: process.env.LOCAL_BACKEND === 'external' ? 'external' : 'embedded',
    isolation: isolationFromEnvironment(process.env.LOCAL_ISOLATION, 'threads'),
  });
  // Installed before the banner says "Ctrl-C stops everything", so a signal sent on reading it stops the
  // stack. `npm start` is `node --import tsx` (one process), not tsx's CLI: that relays a signal to its
  // child and SIGKILLs it when the child's acknowledgement takes over ~60 ms, as on a loaded machine.
  let stopping = false;
  const shutdown = async (signal: string) => {
    // One stop: npm forwards a terminal's Ctrl-C to this process, which the terminal signals too.
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping the local stack…\n`);
    await runtime.stop();
    process.stdout.write('stopped.\n');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  const readyMs = Math.round(performance.now() - startedAt);
  process.stdout.write(bannerFor(runtime, readyMs));
  process.stdout.write(
    pretty ? `logs: one line per request and job event, warnings and errors (LOG_LEVEL=INFO for every line, LOG_FORMAT=json for the raw lines)\n\n` : '\n',
  );
  for (const line of duringBoot.splice(0)) process.stdout.write(`${line}\n`);
  ready = true;
}

main().catch((error: unknown) => {
  process.stderr.write(`local stack failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
