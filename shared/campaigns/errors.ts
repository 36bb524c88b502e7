/** Failures of the campaigns module. No HTTP here: shared/http/error-responses.ts maps them. */

/** No campaign of the caller's organization (and in the key's scope) has this id; another organization's reads the same. */
export class CampaignNotFoundError extends Error {
  override readonly name = 'CampaignNotFoundError';
  readonly code = 'CAMPAIGN_NOT_FOUND';
  constructor(campaignId: string) {
    super(`Campaign ${campaignId} does not exist`);
  }
}

/** An audience a campaign names (included or excluded) that the organization does not have; the message names the field and index. */
export class CampaignAudienceNotFoundError extends Error {
  override readonly name = 'CampaignAudienceNotFoundError';
  readonly code = 'CAMPAIGN_AUDIENCE_NOT_FOUND';
  constructor(
    readonly field: string,
    audienceId: string,
  ) {
    super(`${field}: audience ${audienceId} does not exist`);
  }
}

/** A cursor of GET /campaigns this listing did not issue (another state filter, or not a cursor at all). */
export class InvalidCampaignCursorError extends Error {
  override readonly name = 'InvalidCampaignCursorError';
  readonly code = 'CAMPAIGN_INVALID_CURSOR';
  constructor() {
    super('cursor is not a nextCursor of this listing (same state); start without a cursor');
  }
}

/** A pause, resume or cancel the campaign's state does not allow (the message says why); 409. */
export class CampaignControlRefusedError extends Error {
  override readonly name = 'CampaignControlRefusedError';
  readonly code: 'CAMPAIGN_NOT_PAUSABLE' | 'CAMPAIGN_NOT_PAUSED' | 'CAMPAIGN_ALREADY_FINISHED';
  constructor(code: CampaignControlRefusedError['code'], message: string) {
    super(message);
    this.code = code;
  }
}

/** A launch of a campaign launched already, by another request (no Idempotency-Key, or another one); the same key answers as the first launch did. */
export class CampaignAlreadyLaunchedError extends Error {
  override readonly name = 'CampaignAlreadyLaunchedError';
  readonly code = 'CAMPAIGN_ALREADY_LAUNCHED';
  constructor(campaignId: string, launchedAt: string) {
    super(`Campaign ${campaignId} was launched at ${launchedAt}; a campaign is launched once (read it with GET /campaigns/${campaignId}, or create another)`);
  }
}
