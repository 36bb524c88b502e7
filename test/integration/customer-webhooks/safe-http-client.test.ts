import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SafeHttpClient, systemResolver, type Resolver } from '../../../shared/adapters/http/safe-http-client';
import { WebhookDeliveryError } from '../../../shared/customer-events/errors';

let server: Server;
let base: string;
let port: number;
let connections = 0;
let hugeChunksSent = 0;
const sockets = new Set<import('node:net').Socket>();

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.url === '/redirect') return void response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      if (request.url === '/huge') {
        response.writeHead(200);
        // 8 MiB, far more than the client reads; it must stop early and still answer 200.
        const chunk = Buffer.alloc(64 * 1024, 'x');
        let sent = 0;
        const pump = () => {
          while (sent < 128 && response.write(chunk)) hugeChunksSent = sent += 1;
          if (sent < 128) response.once('drain', pump);
          else response.end();
        };
        return pump();
      }
      if (request.url === '/hang') return; // never answers
      response.writeHead(Number(request.url?.slice(1)) || 200).end('fine');
    });
  });
  server.on('connection', (socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const post = (client: SafeHttpClient, url: string, timeoutMs = 5_000) =>
  client.post({ url, headers: { 'Content-Type': 'application/json' }, body: '{}', timeoutMs });
const reasonOf = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    return error instanceof WebhookDeliveryError ? error.reason : `unexpected ${String(error)}`;
  }
};
/** Maps names to fixed addresses, the rest to the system's DNS. */
const resolverOf =
  (names: Record<string, string[]>): Resolver =>
  async (hostname) =>
    names[hostname]?.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })) ?? systemResolver(hostname);

const local = new SafeHttpClient({ allowLoopback: true, resolver: resolverOf({ 'receiver.test': ['127.0.0.1'] }) });

describe('the SSRF-safe HTTP client', () => {
  it('returns any status, 2xx or not, and opens a new connection per request', async () => {
    const before = connections;
    expect(await post(local, `${base}/200`)).toEqual({ status: 200 });
    expect(await post(local, `${base}/503`)).toEqual({ status: 503 });
    expect(await post(local, `http://receiver.test:${port}/204`)).toEqual({ status: 204 });
    expect(connections - before).toBe(3);
  });

  it('does not follow redirects: a 3xx is the answer', async () => {
    expect(await post(local, `${base}/redirect`)).toEqual({ status: 302 });
  });

  it('reads at most a few KiB of the response and drops the rest', async () => {
    expect(await post(local, `${base}/huge`)).toEqual({ status: 200 });
    // The client hung up long before the 128 chunks: the server could not write them all.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(hugeChunksSent).toBeLessThan(128);
  });

  it('gives up at its deadline', async () => {
    expect(await reasonOf(post(local, `${base}/hang`, 300))).toBe('TIMEOUT');
  });

  it('reports a refused connection', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await reasonOf(post(local, `http://127.0.0.1:${closedPort}/`))).toBe('CONNECTION_FAILED');
  });

  it('refuses loopback and plain http outside local mode', async () => {
    const strict = new SafeHttpClient({ allowLoopback: false, resolver: resolverOf({ 'receiver.test': ['127.0.0.1'] }) });
    const before = connections;
    expect(await reasonOf(post(strict, `${base}/200`))).toBe('INSECURE_URL');
    expect(await reasonOf(post(strict, `https://127.0.0.1:${port}/200`))).toBe('FORBIDDEN_ADDRESS');
    expect(await reasonOf(post(strict, `https://receiver.test:${port}/200`))).toBe('FORBIDDEN_ADDRESS');
    expect(await reasonOf(post(strict, `https://[::1]:${port}/200`))).toBe('FORBIDDEN_ADDRESS');
    expect(connections).toBe(before);
  });

  it('refuses a name resolving to a private or metadata address, after DNS, even in local mode', async () => {
    const client = new SafeHttpClient({
      allowLoopback: true,
      resolver: resolverOf({
        'private.test': ['10.0.0.7'],
        'metadata.test': ['169.254.169.254'],
        'mapped.test': ['::ffff:169.254.169.254'],
        // One bad address among good ones is enough to refuse the name.
        'mixed.test': ['127.0.0.1', '192.168.1.1'],
      }),
    });
    const before = connections;
    for (const name of ['private.test', 'metadata.test', 'mapped.test', 'mixed.test']) {
      expect(await reasonOf(post(client, `http://${name}:${port}/200`))).toBe('FORBIDDEN_ADDRESS');
    }
    expect(await reasonOf(post(client, 'http://169.254.169.254/latest/meta-data/'))).toBe('FORBIDDEN_ADDRESS');
    expect(await reasonOf(post(client, 'http://10.1.2.3:8080/hook'))).toBe('FORBIDDEN_ADDRESS');
    expect(await reasonOf(post(client, 'http://[fd00:ec2::254]/'))).toBe('FORBIDDEN_ADDRESS');
    expect(connections).toBe(before);
  });

  it('checks again on every connection (a name that changes its address is caught)', async () => {
    let answer = '127.0.0.1';
    const client = new SafeHttpClient({ allowLoopback: true, resolver: async () => [{ address: answer, family: 4 }] });
    expect(await post(client, `http://rebinding.test:${port}/200`)).toEqual({ status: 200 });
    answer = '10.0.0.1';
    expect(await reasonOf(post(client, `http://rebinding.test:${port}/200`))).toBe('FORBIDDEN_ADDRESS');
  });

  it('refuses other schemes and unparsable URLs, and keeps the URL out of its messages', async () => {
    expect(await reasonOf(post(local, 'ftp://127.0.0.1/x'))).toBe('INSECURE_URL');
    expect(await reasonOf(post(local, 'not a url'))).toBe('INVALID_URL');
    const error = await post(local, 'http://10.0.0.1/path?token=s3cret').catch((caught: Error) => caught);
    expect(String((error as Error).message)).not.toContain('s3cret');
  });
});
