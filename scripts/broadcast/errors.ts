/** Errors of the broadcast CLI (scripts/broadcast-cli.ts); each carries a message for the operator. */

/** The CSV cannot be sent: every problem found, one line each (`line 7: toPhoneNumber must …`). */
export class RecipientsFileError extends Error {
  constructor(readonly problems: string[]) {
    super(`${problems.length} problem${problems.length === 1 ? '' : 's'} in the recipients file; nothing was sent`);
  }
}

/** Options or configuration missing or malformed (exit code 2). */
export class CliUsageError extends Error {}

/** The chosen template cannot carry this file (not an approved template of the sender). */
export class TemplateChoiceError extends Error {}

/**
 * The service says this file (or one of its parts) was already sent, as the named job, longer ago
 * than an Idempotency-Key is kept: nothing was sent now. `--resend` sends it again.
 */
export class AlreadySentError extends Error {
  constructor(
    readonly part: number,
    readonly parts: number,
    readonly earlierJobId: string,
    readonly acceptedAt: string,
  ) {
    const what = parts === 1 ? 'this file' : `part ${part} of ${parts} of this file`;
    super(`${what} was already sent as job ${earlierJobId} on ${readableTime(acceptedAt)}; run again with --resend to send it again`);
  }
}

/** `2026-03-01T09:00:00.000Z` → `2026-03-01 09:00 UTC` (any other text as it is). */
const readableTime = (iso: string): string =>
  /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso) && iso.endsWith('Z') ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : iso;

/** A campaign file that cannot be read, or a campaign in a state the command cannot follow (exit code 1). */
export class CampaignCommandError extends Error {}

/** The audience file cannot be imported at all: its header, an empty file (nothing was imported), or CSV broken midway. */
export class AudienceFileError extends Error {
  constructor(readonly problems: string[]) {
    super(`${problems.length} problem${problems.length === 1 ? '' : 's'} in the audience file; nothing was imported`);
  }
}
