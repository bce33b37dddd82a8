/**
 * `npm run lint:long-lines`: lines over 120 characters in the tracked text files ESLint does not read
 * (Markdown, CSS, HTML, YAML, JSON, Dockerfile). Skipped: Markdown table rows and package.json, which cannot wrap,
 * and the vendored glTF-Validator test files, kept byte for byte.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const MAX = 120;
const LINTED = /\.(ts|mjs|js|cjs)$/;
const SKIPPED = /^package(-lock)?\.json$|\/migrations\/|\.(png|jpe?g|gif|glb|bin|ico|woff2?|ttf|zip)$/;
const VENDORED = /^test\/fixtures\/gltf-validator\/(?!README\.md$)/;

const files = execFileSync('git', ['ls-files'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && !LINTED.test(f) && !SKIPPED.test(f) && !VENDORED.test(f));

let count = 0;
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    continue; // listed by git but deleted in the working tree
  }
  if (text.includes('\0')) continue;
  text.split('\n').forEach((line, i) => {
    if ([...line].length <= MAX || (file.endsWith('.md') && line.trimStart().startsWith('|'))) return;
    count++;
    console.log(`${file}:${i + 1}: ${[...line].length} characters`);
  });
}
if (count > 0) {
  console.log(`${count} lines over ${MAX} characters`);
  process.exitCode = 1;
}
