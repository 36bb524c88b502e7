/**
 * How a page of one job or one campaign reads itself again: every `intervalMs` while its read says
 * so; a refused read is not found (said once, no more reads) or signs out as the credential check
 * decides (console/model/access.ts); any other fault (a 429, a network blip) is shown and tried
 * again after twice the interval, so the page never stops by itself.
 */
import { campaignReadOutcome } from '../model/access';
import { ApiError, describeError } from './api';
import { notice, replaceChildren } from './dom';
import { session } from './session';

export interface PollerOptions {
  /** Reads and draws the page; answers whether to read again later. `shown()` is false once the page was left. */
  read(shown: () => boolean): Promise<boolean>;
  intervalMs: number;
  /** Where a fault is said. */
  messages: HTMLElement;
  notFound(): void;
}

export interface Poller {
  /** Reads now (and from then on as the read says). */
  load(): Promise<void>;
  /** The page was left: no more reads or drawing. */
  leave(): void;
}

export function createPoller(options: PollerOptions): Poller {
  let timer: number | undefined;
  let left = false;
  const shown = () => !left;
  const later = (ms: number) => {
    if (!left) timer = window.setTimeout(() => void load(), ms);
  };
  const load = async (): Promise<void> => {
    window.clearTimeout(timer);
    try {
      if (await options.read(shown)) later(options.intervalMs);
    } catch (error) {
      const outcome = error instanceof ApiError ? campaignReadOutcome(error, session.key() !== null) : 'error';
      // Signed out: the sign-in form has replaced this page.
      if (outcome === 'signed-out' || left) return;
      if (outcome === 'not-found') {
        options.notFound();
        return;
      }
      replaceChildren(options.messages, notice(describeError(error)));
      later(options.intervalMs * 2);
    }
  };
  return {
    load,
    leave: () => {
      left = true;
      window.clearTimeout(timer);
    },
  };
}
