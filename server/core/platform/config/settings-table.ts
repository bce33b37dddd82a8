import { ALL_SETTINGS, SCHEMAS } from './pieces.js';
import type { Node } from './settings.js';
const leaves = (schema: object): Node[] => {
  const node = schema as Node;
  return node.properties ? Object.values(node.properties).flatMap(leaves) : [node];
};
const readers = (env: string) => {
  const names = Object.entries(SCHEMAS).filter(([, schema]) => leaves(schema).some((leaf) => leaf.env === env));
  return names.length === 3 ? 'all' : names.map(([name]) => name).join(', ');
};
const shown = ({ shown, default: value }: Node) =>
  shown ?? (value === undefined ? 'unset' : value === '' ? 'empty' : `\`${String(value).replace(/[{}]/g, '')}\``);

/** docs/settings.md: one row per setting, from the schema in pieces.ts (`npm run docs:settings` writes it). */
export function settingsDoc(): string {
  const rows = [...new Map(leaves(ALL_SETTINGS).map((leaf) => [leaf.env!, leaf])).values()].map((leaf) =>
    [`\`${leaf.env}\``, shown(leaf), leaf.accepts, readers(leaf.env!), leaf.description].map((cell) =>
      String(cell).replace(/\|/g, '\\|'),
    ),
  );
  return [
    '# Settings',
    '',
    'Settings are environment variables; a `.env` file in the project root is read when present. Each process reads',
    'and checks the settings it uses when it starts, and a bad value stops it with one line naming the setting.',
    '`npm start` fills in what a local run needs and keeps anything already set. This page is generated from the',
    'schema in `server/core/platform/config/pieces.ts` by `npm run docs:settings`; the `RATE_LIMIT_*` defaults are',
    "the interface's limits (docs/api.md), which operators and benchmarks raise here.",
    '',
    '| name | default | accepts | read by | meaning |',
    '|---|---|---|---|---|',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
    '',
  ].join('\n');
}
