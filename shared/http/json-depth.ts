/**
 * Nesting depth of a JSON text, counted by one pass over the characters (no recursion), so a
 * body nested 100,000 levels deep costs a loop, not a stack. Brackets inside strings do not count.
 */

/** Arrays and objects may nest this deep in any request body (the contracts need a handful). */
export const MAX_JSON_NESTING_DEPTH = 64;

export function jsonNestingExceeds(text: string, limit: number = MAX_JSON_NESTING_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c /* \ */) index += 1;
      else if (char === 0x22 /* " */) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x5b /* [ */ || char === 0x7b /* { */) {
      depth += 1;
      if (depth > limit) return true;
    } else if (char === 0x5d /* ] */ || char === 0x7d /* } */) {
      depth -= 1;
    }
  }
  return false;
}
