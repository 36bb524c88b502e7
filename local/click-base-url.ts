/**
 * The local tracked-link base (docs/OUTCOMES.md "Tracked links"): the local gateway serves the clicks
 * surface like every other, so CLICK_BASE_URL is the gateway's own URL and the surface's stage. The
 * functions need it in their environment before the gateway listens, so a port of 0 ("any") is
 * chosen first here.
 */
import { createServer, type AddressInfo } from 'node:net';
import { surfaces } from '../runtime-contract/route-manifest';

/** A free port on the loopback address for a gateway asked to listen on `port` (0: any). */
export async function gatewayPortFor(port: number): Promise<number> {
  if (port !== 0) return port;
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port: free } = server.address() as AddressInfo;
      server.close(() => resolve(free));
    });
  });
}

/**
 * @example localClickBaseUrl(3000); // 'http://127.0.0.1:3000/l'
 */
export const localClickBaseUrl = (port: number): string => `http://127.0.0.1:${port}/${surfaces.clicks.stage}`;
