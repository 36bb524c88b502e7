/** A request's header, buttons, named parameters, carousel or offer do not fit the chosen template. */
export class TemplateContentError extends Error {
  override readonly name = 'TemplateContentError';
  readonly code = 'TEMPLATE_CONTENT';
}

/** The template has a component a broadcast cannot fill (template-requirements.ts `unsupported`). */
export class TemplateNotSendableError extends Error {
  override readonly name = 'TemplateNotSendableError';
  readonly code = 'TEMPLATE_NOT_SENDABLE';
}
