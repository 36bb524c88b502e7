/**
 * A webhook receiver for tests on 127.0.0.1: records every request (headers, raw body) and answers
 * what the test's `respond` says: a status, `{ status, afterMs }` (that status, that much later: a
 * slow endpoint), or `'hang'` (never answers; closed on `close()`).
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** When the whole body had arrived (epoch ms). */
  receivedAt: number;
  /** The status answered; undefined while hanging. */
  status?: number;
  /** The connection closed (the client gave up, or the answer was sent and the client hung up). */
  connectionClosed: boolean;
}

export interface ScriptedReceiver {
  url: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

export type ScriptedAnswer = number | 'hang' | { status: number; afterMs: number };

export async function startScriptedReceiver(respond: (request: ReceivedRequest, index: number) => ScriptedAnswer): Promise<ScriptedReceiver> {
  const requests: ReceivedRequest[] = [];
  const hanging: ServerResponse[] = [];
  const delayed = new Set<NodeJS.Timeout>();
  const server: Server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request: ReceivedRequest = {
        headers: incoming.headers,
        rawBody: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
        connectionClosed: false,
      };
      incoming.socket.once('close', () => {
        request.connectionClosed = true;
      });
      requests.push(request);
      const answer = respond(request, requests.length - 1);
      if (answer === 'hang') {
        hanging.push(response);
        return;
      }
      const send = (status: number) => {
        request.status = status;
        response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'no');
      };
      if (typeof answer === 'number') return send(answer);
      hanging.push(response);
      const timer = setTimeout(() => {
        delayed.delete(timer);
        if (!response.destroyed) send(answer.status);
      }, answer.afterMs);
      delayed.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks?token=receiver-secret`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of delayed) clearTimeout(timer);
        for (const response of hanging) response.socket?.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
