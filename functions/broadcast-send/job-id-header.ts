/**
 * Every accepted send names its job in this header (the contract's bodies stay as they are), so
 * the status and recipients endpoints can be read for broadcasts of 1,000 recipients or fewer and
 * for free-form messages too.
 */
export const JOB_ID_HEADER = 'X-Broadcast-Job-Id';

export const jobIdHeader = (jobId: string): Record<string, string> => ({ [JOB_ID_HEADER]: jobId });
