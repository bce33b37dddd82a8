import { createHash } from 'node:crypto';

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/** The name in at most two lines of about 22 characters, broken between words. */
function nameLines(name: string): string[] {
  const lines = [''];
  for (const word of name.split(/\s+/)) {
    const last = lines.length - 1;
    if (lines[last] && `${lines[last]} ${word}`.length > 22 && lines.length < 2) lines.push(word);
    else lines[last] = lines[last] ? `${lines[last]} ${word}` : word;
  }
  return lines.map((line) => (line.length > 24 ? `${line.slice(0, 23)}…` : line));
}

/**
 * A fixture model's picture, 256 px square: a shaded box on a colour of its own (from `seed`)
 * and the model's name, so that the offline demo's results look like a library's.
 */
export function thumbnailSvg(name: string, seed: string): string {
  const hue = Math.round(createHash('md5').update(seed).digest()[0] * (360 / 256));
  const lines = nameLines(name);
  const text = lines
    .map((line, i) => `<text x="128" y="${214 + i * 20 - (lines.length - 1) * 10}">${escapeXml(line)}</text>`)
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">` +
    `<rect width="256" height="256" fill="hsl(${hue} 45% 88%)"/>` +
    `<path d="M128 40l62 34v68l-62 34-62-34V74z" fill="hsl(${hue} 40% 55%)"/>` +
    `<path d="M128 108l62-34v68l-62 34z" fill="hsl(${hue} 40% 42%)"/>` +
    `<path d="M128 40l62 34-62 34-62-34z" fill="hsl(${hue} 45% 70%)"/>` +
    `<g font-family="system-ui, sans-serif" font-size="16" fill="hsl(${hue} 30% 20%)" text-anchor="middle">` +
    `${text}</g></svg>`
  );
}
