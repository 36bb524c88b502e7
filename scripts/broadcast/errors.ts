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
