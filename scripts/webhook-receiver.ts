/**
 * `npm run webhook-receiver -- --secret <secret> [--port 4020] [--full]`: a tiny receiver for trying
 * customer webhooks locally. Verifies each delivery with the documented check (docs/CUSTOMER-WEBHOOKS.md,
 * "Signature"; `verifyCustomerEvent` is that snippet), prints verified events one per line (the
 * fields a person watches for first: status, recipient, failure; `--full` prints every field) and
 * answers 204; a bad signature gets 401 and a line on stderr. Listens on 127.0.0.1 only.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyCustomerEvent } from '../shared/customer-events/signing';

const MAX_BODY_BYTES = 1024 * 1024;

export interface WebhookReceiverOptions {
  secret: string;
  port: number;
  /** One line per verified event; stdout by default. */
  print?: (line: string) => void;
  /** One line per refused request; stderr by default. */
  warn?: (line: string) => void;
  /** Print each event's whole `data` rather than a line cut at 160 characters. */
  full?: boolean;
}

/** The fields a person watching a broadcast looks for, shown first so a cut line still has them. */
const leadingFields = ['status', 'state', 'jobId', 'recipient', 'to', 'userId', 'failure', 'error', 'template', 'name', 'change'];
const summaryLength = 160;

/**
 * A one-line view of `data`: its leading fields first (a `message.status` line starts with the
 * status), cut at 160 characters unless `full`.
 *
 * @example
 * summaryOf({ jobId: 'pub_1', recipient: '447700900123', status: 'delivered' }, false); // '{"status":"delivered","jobId":"pub_1","recipient":"447700900123"}'
 */
export function summaryOf(data: unknown, full: boolean): string {
  const ordered =
    data !== null && typeof data === 'object' && !Array.isArray(data)
      ? Object.fromEntries(
          Object.entries(data as Record<string, unknown>).sort(
            ([a], [b]) => (leadingFields.indexOf(a) + 1 || leadingFields.length + 1) - (leadingFields.indexOf(b) + 1 || leadingFields.length + 1),
          ),
        )
      : (data ?? {});
  const text = JSON.stringify(ordered);
  return full || text.length <= summaryLength ? text : `${text.slice(0, summaryLength - 3)}...`;
}

export async function startWebhookReceiver(options: WebhookReceiverOptions): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const print = options.print ?? ((line) => process.stdout.write(`${line}\n`));
  const warn = options.warn ?? ((line) => process.stderr.write(`${line}\n`));
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      if (request.method !== 'POST' || size > MAX_BODY_BYTES || !verifyCustomerEvent(options.secret, request.headers, rawBody)) {
        warn(`refused ${request.method} ${request.url?.split('?')[0]}: signature does not verify (401)`);
        response.writeHead(401, { 'content-type': 'text/plain' }).end('invalid signature');
        return;
      }
      try {
        const event = JSON.parse(rawBody.toString('utf8')) as { id?: string; type?: string; createdAt?: string; data?: unknown };
        print(`${event.createdAt ?? ''} ${event.type ?? '?'} ${event.id ?? '?'} ${summaryOf(event.data, options.full === true)}`);
      } catch {
        print(`verified, but not JSON: ${rawBody.length} bytes`);
      }
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  if (index !== -1) return process.argv[index + 1];
  return process.argv.find((candidate) => candidate.startsWith(`--${name}=`))?.slice(name.length + 3);
}

async function main(): Promise<void> {
  const secret = argument('secret') ?? process.env.WEBHOOK_SECRET;
  if (!secret) {
    process.stderr.write('usage: npm run webhook-receiver -- --secret <endpoint secret> [--port 4020] [--full]   (or WEBHOOK_SECRET, PORT)\n');
    process.exit(2);
  }
  const port = Number(argument('port') ?? process.env.PORT ?? 4020);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write('--port must be a port number\n');
    process.exit(2);
  }
  const receiver = await startWebhookReceiver({ secret, port, full: process.argv.includes('--full') });
  process.stdout.write(`webhook receiver on ${receiver.url} (register this URL; events print below, Ctrl-C stops)\n`);
  const stop = () => void receiver.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (require.main === module) void main();
