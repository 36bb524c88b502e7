/** CDK logical-id names, defined once. */

/**
 * `broadcast-send` → `BroadcastSend`. With `foldCase`, the name is lower-cased first
 * (`{phoneNumberId}` → `Phonenumberid`): the API resources' logical ids were minted that way and
 * must not change (a new logical id replaces the resource).
 */
export function pascal(name: string, options: { foldCase?: boolean } = {}): string {
  const source = options.foldCase ? name.toLowerCase() : name;
  return source.replace(/(^|[^a-zA-Z0-9]+)([a-zA-Z0-9])/g, (_match, _separator: string, char: string) => char.toUpperCase());
}
