/**
 * Where a JSON text first goes wrong, for Flow JSON validation errors with a line and column
 * (Meta reports positions; V8's JSON.parse messages do not always carry one). A strict
 * RFC 8259 recogniser: it only finds the offset, JSON.parse still does the parsing.
 */

/** Offset of the first character that makes `text` invalid JSON, or undefined if it is valid. */
export function jsonSyntaxErrorOffset(text: string): number | undefined {
  let index = 0;
  class Stop extends Error {}
  const fail = (): never => {
    throw new Stop();
  };
  const space = () => {
    while (index < text.length && ' \t\n\r'.includes(text[index] ?? '')) index += 1;
  };
  const literal = (word: string) => {
    for (const char of word) {
      if (text[index] !== char) fail();
      index += 1;
    }
  };
  const string = () => {
    index += 1; // opening quote
    while (index < text.length) {
      const char = text[index] ?? '';
      if (char === '"') {
        index += 1;
        return;
      }
      if (char < ' ') fail();
      if (char === '\\') {
        const escaped = text[index + 1] ?? '';
        if (escaped === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(index + 2, index + 6))) {
            index += 2;
            fail();
          }
          index += 6;
          continue;
        }
        if (!'"\\/bfnrt'.includes(escaped) || escaped === '') {
          index += 1;
          fail();
        }
        index += 2;
        continue;
      }
      index += 1;
    }
    fail();
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(index));
    if (match === null || match[0] === '' || match[0] === '-') fail();
    index += match?.[0].length ?? 0;
  };
  const value = (): void => {
    space();
    const char = text[index];
    if (char === '{') {
      index += 1;
      space();
      if (text[index] === '}') {
        index += 1;
        return;
      }
      for (;;) {
        space();
        if (text[index] !== '"') fail();
        string();
        space();
        if (text[index] !== ':') fail();
        index += 1;
        value();
        space();
        if (text[index] === ',') {
          index += 1;
          continue;
        }
        if (text[index] === '}') {
          index += 1;
          return;
        }
        fail();
      }
    }
    if (char === '[') {
      index += 1;
      space();
      if (text[index] === ']') {
        index += 1;
        return;
      }
      for (;;) {
        value();
        space();
        if (text[index] === ',') {
          index += 1;
          continue;
        }
        if (text[index] === ']') {
          index += 1;
          return;
        }
        fail();
      }
    }
    if (char === '"') return string();
    if (char === 't') return literal('true');
    if (char === 'f') return literal('false');
    if (char === 'n') return literal('null');
    return number();
  };
  try {
    value();
    space();
    return index < text.length ? index : undefined;
  } catch (error) {
    if (error instanceof Stop) return Math.min(index, text.length);
    throw error;
  }
}
