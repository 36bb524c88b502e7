/**
 * A business number in standby (Meta's Conversation Routing, fact sheet row 7 of
 * ../shared/meta/platform-changes-2026-h2.md): another app (Meta Business Agent, a second partner)
 * holds the number's conversations and this app only listens. While a number is in standby the
 * sandbox posts its inbound messages on the `standby` webhook field (same value shape as
 * `messages`) and refuses this app's free-form sends from it with 131070 (the app does not own
 * the thread); template sends are business-initiated and still accepted. The sandbox models a
 * standby app that is not the escalation partner, so a send never takes the thread over
 * (sandbox/README.md "Standby"). Set through `POST /_sandbox/phone-numbers/{id}/standby`.
 */
import { errorDescription } from './graph-error-catalog';
import { whatsappRequestError, type GraphError } from './graph-errors';
import { SandboxRequestError } from './sandbox-request-error';
import type { SandboxState } from './sandbox-state';

/**
 * Body `{ "standby": true }` (the default) or `{ "standby": false }`; answers the number's state.
 *
 * @example setStandby(state, '106540352242922', { standby: true }); // { phoneNumberId: '106540352242922', standby: true }
 */
export function setStandby(state: SandboxState, phoneNumberId: string, body: unknown): { phoneNumberId: string; standby: boolean } {
  const standby = typeof body === 'object' && body !== null ? ((body as { standby?: unknown }).standby ?? true) : true;
  if (typeof standby !== 'boolean') throw new SandboxRequestError(400, 'standby must be a boolean');
  const node = state.node(phoneNumberId);
  if (node?.kind !== 'phone') throw new SandboxRequestError(404, `no phone number with id ${phoneNumberId}`);
  node.phone.standby = standby;
  return { phoneNumberId, standby };
}

/** Reset: no number is in standby. */
export function clearStandby(state: SandboxState): void {
  for (const stored of state.allAccounts()) for (const phone of stored.phones.values()) phone.standby = false;
}

/** A free-form send from a number in standby: 131070, as Meta answers an app that does not own the thread. */
export function threadNotOwned(phoneNumberId: string): GraphError {
  const { title, details } = errorDescription(131070);
  return whatsappRequestError(400, 131070, title, `${details} (phone number ${phoneNumberId})`);
}
