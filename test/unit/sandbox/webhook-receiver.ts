/**
 * A local HTTP server standing in for the platform's webhook endpoint in sandbox tests: it keeps
 * every POST (signature, raw body, parsed body) and answers the next queued status, else 200.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  signature: string | undefined;
  raw: string;
  body: any;
}

/** Records every POST; answers the next queued status, else 200. */
export class Receiver {
  readonly received: Received[] = [];
  readonly answers: number[] = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const header = request.headers['x-hub-signature-256'];
        this.received.push({ signature: Array.isArray(header) ? header[0] : header, raw, body: JSON.parse(raw) });
        response.writeHead(this.answers.shift() ?? 200).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks/meta/whatsapp`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  clear(): void {
    this.received.length = 0;
    this.answers.length = 0;
  }

  /** Every status posted, in arrival order. */
  statuses(): any[] {
    return this.received.flatMap((post) => post.body.entry.flatMap((entry: any) => entry.changes.flatMap((change: any) => change.value.statuses ?? [])));
  }
}
