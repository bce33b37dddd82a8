import type { SceneWarning, WarningCode } from './types.js';

/** Parser warnings past this many collapse into one `too_many_warnings` (docs/scene-format.md, Limits). */
const MAX_WARNINGS = 500;

/** Collects the parser's warnings, at most MAX_WARNINGS, then one `too_many_warnings`. */
export class SceneWarnings {
  readonly list: SceneWarning[] = [];

  warn(path: string, code: WarningCode, message: string): void {
    if (this.list.length < MAX_WARNINGS) {
      this.list.push({ path, code, message });
    } else if (this.list.length === MAX_WARNINGS) {
      this.list.push({
        path: '',
        code: 'too_many_warnings',
        message: `More than ${MAX_WARNINGS} problems; the rest are not listed.`,
      });
    }
  }
}
