import { SenderNotConnectedError } from './errors';

/** What generate-key needs from tenancy: issue a broadcast key bound to the number's organization. */
export interface SenderKeyIssuer {
  issueBroadcastKeyForPhoneNumber(phoneNumber: string): Promise<{ secret: string }>;
}

export interface SenderKeyErrors {
  /** Tenancy's answers for "not onboarded / not linked to an active business account". */
  isNotConnected(error: unknown): boolean;
}

/**
 * The earlier generate-key operation: an API key bound to one onboarded sender number, shown
 * once and stored only as a hash (and, on AWS, registered in the broadcast usage plan).
 */
export async function generateSenderKey(issuer: SenderKeyIssuer, errors: SenderKeyErrors, phoneNumber: string): Promise<{ apiKey: string }> {
  try {
    const issued = await issuer.issueBroadcastKeyForPhoneNumber(phoneNumber);
    return { apiKey: issued.secret };
  } catch (error) {
    if (errors.isNotConnected(error)) throw new SenderNotConnectedError(phoneNumber);
    throw error;
  }
}
