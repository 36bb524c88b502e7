/**
 * Nesting depth of a JSON text, counted by one pass over the characters (no recursion), so a
 * body nested 100,000 levels deep costs a loop, not a stack. Brackets inside strings do not count.
 * A string is skipped with `indexOf` to its closing quote (a quote after an even run of
 * backslashes): most of a broadcast body is strings (numbers, names), and the native search is
 * several times faster than looking at each of their characters (docs/PERFORMANCE.md section 3).
 */

/** Arrays and objects may nest this deep in any request body (the contracts need a handful). */
export const MAX_JSON_NESTING_DEPTH = 64;

/**
 * Whether arrays and objects in `text` nest deeper than `limit`.
 *
 * @example
 * jsonNestingExceeds('{"a":[[1]]}', 2); // true
 * jsonNestingExceeds('{"a":"[[[["}', 1); // false: brackets in a string
 */
export function jsonNestingExceeds(text: string, limit: number = MAX_JSON_NESTING_DEPTH): boolean {
  let depth = 0;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (char === 0x22 /* " */) {
      index = closingQuoteAfter(text, index);
    } else if (char === 0x5b /* [ */ || char === 0x7b /* { */) {
      depth += 1;
      if (depth > limit) return true;
    } else if (char === 0x5d /* ] */ || char === 0x7d /* } */) {
      depth -= 1;
    }
  }
  return false;
}

/** Where the string opened at `opening` ends: its closing quote, or the text's end when unterminated. */
function closingQuoteAfter(text: string, opening: number): number {
  let quote = text.indexOf('"', opening + 1);
  while (quote !== -1) {
    // An escaped quote follows an odd run of backslashes; the run cannot pass the opening quote.
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c /* \ */) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return text.length;
}
