/**
 * What the editor's panels share (docs/owner-console.md, "The editor"). A panel gets the whole draft `data`, the
 * outlines of its models and the current warnings as properties, and never calls the API: it announces each edit
 * with the whole next `data`, which the editor records for undo and redo and sends to the live preview.
 */
import type { Static } from 'typebox';
import type { Outline } from '#core/wire/outline.js';
import type { SceneWarning } from '#core/wire/configurator/index.js';

/** A project's `data` as stored: owner JSON, kept as given so fields of other editors survive a round trip. */
export interface ProjectDataDraft {
  models: Array<Record<string, unknown>>;
  sceneData: Record<string, unknown>;
  camera?: Record<string, unknown>;
  renderQuality: 'optimised' | 'low' | 'high';
  saveConfigEnabled: boolean;
}

export type ModelOutline = Static<typeof Outline>;

/** Outlines by model entry id (`data.models[].id`); undefined while loading or when the model has none. */
export type OutlinesByModel = Record<string, ModelOutline | undefined>;

export type { SceneWarning };

/** Fired (bubbling, composed) by a panel for each edit: one event is one undo step. */
export const EDIT_EVENT = 'editor-edit';
export interface EditDetail {
  data: ProjectDataDraft;
  /** What the edit did, for the undo button's label: "Rename block Seat". */
  label: string;
}

/** Fired when the owner picks a choice in the editor, so the live preview shows it selected. */
export const SELECT_CHOICE_EVENT = 'editor-select-choice';
export interface SelectChoiceDetail {
  blockId: string;
  choiceId: string;
}

export function editEvent(detail: EditDetail): CustomEvent<EditDetail> {
  return new CustomEvent(EDIT_EVENT, { detail, bubbles: true, composed: true });
}

/** The warnings about one entry and what it holds: `warningsAt(w, 'sceneData.optionBlocks.2')`. */
export function warningsAt(warnings: readonly SceneWarning[], path: string): SceneWarning[] {
  return warnings.filter((w) => w.path === path || w.path.startsWith(`${path}.`));
}

/** Fired by the Look panel's "Use this view": the editor stores the live preview's camera as `data.camera`. */
export const USE_VIEW_EVENT = 'editor-use-view';
