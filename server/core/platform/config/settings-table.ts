import { ALL_PIECES } from './pieces.js';
import type { ProcessName, Setting } from './settings.js';

const BEGIN = '<!-- settings:begin -->';
const END = '<!-- settings:end -->';
const PROCESS_ORDER: readonly ProcessName[] = ['server', 'worker', 'bff'];

const cell = (text: string) => text.replace(/\|/g, '\\|');

function shownDefault(setting: Setting): string {
  if (setting.shown !== undefined) return setting.shown;
  if (setting.default === undefined) return 'unset';
  return setting.default === '' ? 'empty' : `\`${setting.default}\``;
}

/** The README's settings table, one row per setting, from the pieces' declarations. */
function settingsTable(): string {
  const rows = new Map<string, { setting: Setting; processes: Set<ProcessName> }>();
  for (const piece of ALL_PIECES)
    for (const [name, setting] of Object.entries(piece.settings)) {
      const row = rows.get(name) ?? { setting, processes: new Set() };
      for (const process of piece.processes) row.processes.add(process);
      rows.set(name, row);
    }
  const lines = ['| name | default | accepts | read by | meaning |', '|---|---|---|---|---|'];
  for (const [name, { setting, processes }] of rows) {
    const readBy =
      processes.size === PROCESS_ORDER.length ? 'all' : PROCESS_ORDER.filter((p) => processes.has(p)).join(', ');
    const cells = [`\`${name}\``, shownDefault(setting), setting.accepts, readBy, setting.doc];
    lines.push(`| ${cells.map(cell).join(' | ')} |`);
  }
  return lines.join('\n');
}

/** `readme` with the text between its settings markers replaced by the current table. */
export function withSettingsTable(readme: string): string {
  const begin = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (begin === -1 || end < begin) throw new Error(`README.md needs ${BEGIN} and ${END}, in that order`);
  return `${readme.slice(0, begin + BEGIN.length)}\n${settingsTable()}\n${readme.slice(end)}`;
}
