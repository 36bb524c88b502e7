/**
 * Where the broadcast CLI sends its requests and with which key: `--base-url` / `--api-key`, else
 * BROADCAST_BASE_URL / BROADCAST_API_KEY, else the local runtime's `.local/demo.json` (written by
 * `npm start`: its `baseUrl` is the gateway, the broadcast API lives under `/prod/api/v2`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { surfaces } from '../../runtime-contract/route-manifest';
import { CliUsageError } from './errors';

export interface Connection {
  /** The broadcast API's base, ending with `/prod/api/v2` (the stack output BroadcastApiUrl). */
  baseUrl: string;
  apiKey: string;
  /** Where each value came from, for the first line of output. */
  source: 'options' | 'environment' | 'demo file';
}

export interface ConnectionOptions {
  'base-url'?: string;
  'api-key'?: string;
  'demo-file'?: string;
}

export function resolveConnection(options: ConnectionOptions, environment: NodeJS.ProcessEnv, cwd: string): Connection {
  const fromOptions = { baseUrl: options['base-url'], apiKey: options['api-key'] };
  const fromEnvironment = { baseUrl: environment.BROADCAST_BASE_URL || undefined, apiKey: environment.BROADCAST_API_KEY || undefined };
  let fromDemo: { baseUrl?: string; apiKey?: string } = {};
  const demoPath = options['demo-file'] ?? join(cwd, '.local', 'demo.json');
  if (existsSync(demoPath)) {
    const demo = JSON.parse(readFileSync(demoPath, 'utf8')) as { baseUrl?: string; apiKey?: string };
    const broadcast = surfaces.broadcast;
    fromDemo = { baseUrl: demo.baseUrl && `${demo.baseUrl.replace(/\/+$/, '')}/${broadcast.stage}${broadcast.basePath}`, apiKey: demo.apiKey };
  } else if (options['demo-file']) {
    throw new CliUsageError(`--demo-file ${demoPath} does not exist`);
  }
  const baseUrl = fromOptions.baseUrl ?? fromEnvironment.baseUrl ?? fromDemo.baseUrl;
  const apiKey = fromOptions.apiKey ?? fromEnvironment.apiKey ?? fromDemo.apiKey;
  const missing = [...(baseUrl ? [] : ['--base-url (or BROADCAST_BASE_URL)']), ...(apiKey ? [] : ['--api-key (or BROADCAST_API_KEY)'])];
  if (missing.length > 0) {
    throw new CliUsageError(`missing ${missing.join(' and ')}; locally, start the service with \`npm start\` first: it writes ${demoPath}`);
  }
  const source = fromOptions.baseUrl ? 'options' : fromEnvironment.baseUrl ? 'environment' : 'demo file';
  return { baseUrl: baseUrl!.replace(/\/+$/, ''), apiKey: apiKey!, source };
}
