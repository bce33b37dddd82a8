import type { ProjectDataDraft } from './editor-types.js';

/** One recorded edit: the data before and after it, and what it did in words. */
interface Step {
  before: ProjectDataDraft;
  after: ProjectDataDraft;
  label: string;
}

/**
 * The session's undo and redo over whole `data` snapshots: each panel edit is one step, so undo restores exactly what
 * the owner saw before it, whatever the panel changed.
 */
export class EditHistory {
  private done: Step[] = [];
  private undone: Step[] = [];

  constructor(private readonly limit = 200) {}

  record(before: ProjectDataDraft, after: ProjectDataDraft, label: string) {
    this.done.push({ before, after, label });
    if (this.done.length > this.limit) this.done.shift();
    this.undone = [];
  }

  /** The data to show after undoing the last edit, or undefined when there is none. */
  undo(): { data: ProjectDataDraft; label: string } | undefined {
    const step = this.done.pop();
    if (!step) return undefined;
    this.undone.push(step);
    return { data: step.before, label: step.label };
  }

  redo(): { data: ProjectDataDraft; label: string } | undefined {
    const step = this.undone.pop();
    if (!step) return undefined;
    this.done.push(step);
    return { data: step.after, label: step.label };
  }

  get undoLabel(): string | undefined {
    return this.done.at(-1)?.label;
  }

  get redoLabel(): string | undefined {
    return this.undone.at(-1)?.label;
  }

  clear() {
    this.done = [];
    this.undone = [];
  }
}
