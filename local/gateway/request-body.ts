/**
 * The request body under API Gateway's payload cap: read whole up to the cap, and beyond it a
 * 413 gateway response without buffering the rest.
 */
import type http from 'node:http';
import { maxRequestBodyBytes, type SurfaceDefinition } from '../../runtime-contract/route-manifest';
import { sendGatewayResponse, type GatewayResponseContext } from './gateway-responses';

/** The declared `Content-Length` is already over the cap. */
export const declaredTooLarge = (req: http.IncomingMessage): boolean => {
  const declaredLength = req.headers['content-length'];
  return declaredLength !== undefined && Number(declaredLength) > maxRequestBodyBytes;
};

/**
 * Answers 413 and stops reading: the rest of the body is discarded as it arrives (never buffered),
 * and the connection is closed after the answer (or dropped if the client keeps sending).
 */
export const rejectTooLarge = (req: http.IncomingMessage, res: http.ServerResponse, surface: SurfaceDefinition, context: GatewayResponseContext): void => {
  sendGatewayResponse(res, surface, 'REQUEST_TOO_LARGE', context, { Connection: 'close' });
  if (!req.complete) {
    req.removeAllListeners('data');
    req.resume();
    const drop = setTimeout(() => req.socket.destroy(), 2_000);
    drop.unref();
    req.once('end', () => clearTimeout(drop));
    req.once('close', () => clearTimeout(drop));
  }
};

/** Reads the body up to the cap; answers 413 and returns 'rejected' beyond it ('rejected' too when the client goes away). */
export const readBody = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  surface: SurfaceDefinition,
  context: GatewayResponseContext,
): Promise<Buffer | 'rejected'> =>
  new Promise((resolve) => {
    if (req.complete && req.readableLength === 0) {
      resolve(Buffer.alloc(0));
      return;
    }
    const chunks: Buffer[] = [];
    let total = 0;
    let done = false;
    const finish = (outcome: Buffer | 'rejected'): void => {
      done = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onError);
      resolve(outcome);
    };
    const onData = (chunk: Buffer): void => {
      if (done) return;
      total += chunk.length;
      if (total <= maxRequestBodyBytes) {
        chunks.push(chunk);
        return;
      }
      chunks.length = 0;
      finish('rejected');
      rejectTooLarge(req, res, surface, context);
    };
    const onEnd = (): void => {
      if (!done) finish(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total));
    };
    const onError = (): void => {
      if (!done) finish('rejected');
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onError);
  });
