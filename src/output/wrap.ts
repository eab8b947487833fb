// Prose for a terminal, wrapped at word boundaries to its width (colour codes take no room).
import { textWidth } from './table.js';

const SGR = /\x1b\[[0-9;]*m/g;

/** Each line of `text` wrapped at spaces to `width`; continuation lines start with `indent`. */
export function wrapText(text: string, width: number, indent = ''): string {
  if (!Number.isFinite(width) || width < 20) return text;
  return text
    .split('\n')
    .map((line) => {
      if (textWidth(line.replace(SGR, '')) <= width) return line;
      const out: string[] = [];
      let cur = '';
      let w = 0;
      for (const word of line.split(' ')) {
        const ww = textWidth(word.replace(SGR, ''));
        if (cur !== '' && w + 1 + ww > width) {
          out.push(cur);
          cur = indent + word;
          w = indent.length + ww;
        } else if (cur === '') {
          cur = word;
          w = ww;
        } else {
          cur += ` ${word}`;
          w += 1 + ww;
        }
      }
      out.push(cur);
      return out.join('\n');
    })
    .join('\n');
}
