import { SenderNotConnectedError } from './errors';

/**
 * What generate-key needs from tenancy: issue a broadcast key bound to the number's organization,
 * if that organization turned key generation on, recorded with a hash of the caller's source IP.
 */
export interface SenderKeyIssuer {
  issueBroadcastKeyForPhoneNumber(input: { phoneNumber: string; sourceIp?: string }): Promise<{ secret: string }>;
}

export interface SenderKeyErrors {
  /**
   * Tenancy's answers for "not onboarded / not linked to an active business account / key
   * generation not turned on": one answer for all, so the route is no oracle for the setting.
   */
  isNotConnected(error: unknown): boolean;
}

/**
 * The earlier generate-key operation: an API key bound to one onboarded sender number, shown
 * once and stored only as a hash (and, on AWS, registered in the broadcast usage plan). The key's
 * scope is the earlier operations of that number only (key-scope.ts).
 */
export async function generateSenderKey(
  issuer: SenderKeyIssuer,
  errors: SenderKeyErrors,
  request: { phoneNumber: string; sourceIp?: string },
): Promise<{ apiKey: string }> {
  const { phoneNumber } = request;
  try {
    const issued = await issuer.issueBroadcastKeyForPhoneNumber(request);
    return { apiKey: issued.secret };
  } catch (error) {
    if (errors.isNotConnected(error)) throw new SenderNotConnectedError(phoneNumber);
    throw error;
  }
}
