// A byte order mark (U+FEFF) at the start of a text file: editors on Windows write one, JSON.parse
// refuses it ("Unexpected token"). Only a leading one goes; one anywhere else is the text's own.
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
