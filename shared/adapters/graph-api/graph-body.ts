/** A Graph answer's body as the classifier reads it: JSON when it parses, else the text; nothing for an empty body. */
export const parsedBody = (text: string): unknown => {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};
