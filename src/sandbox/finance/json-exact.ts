// The literal text of a number at the top level of a JSON object, so that an amount sent as a
// JSON number ("amount": 10.05) is kept exactly as written instead of going through a double.
// The text has already been validated by JSON.parse.

export function topLevelNumberLiteral(text: string, key: string): string | undefined {
  let depth = 0;
  let i = 0;
  let lastString: string | undefined;
  let expectValueFor: string | undefined;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      lastString = text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === ':' && depth === 1 && lastString !== undefined) {
      let k: string | undefined;
      try {
        k = JSON.parse(lastString) as string;
      } catch {
        k = undefined;
      }
      expectValueFor = k;
      i++;
      while (i < text.length && /\s/.test(text[i]!)) i++;
      if (expectValueFor === key) {
        const m = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i));
        if (m) return m[0];
      }
      continue;
    }
    i++;
  }
  return undefined;
}
