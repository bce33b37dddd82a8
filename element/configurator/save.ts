import { html } from 'lit';
import type { ConfigShareStrings } from '../features/strings.js';

/** The last saved link, and whether copying it worked (undefined while the copy is under way). */
export interface SaveState {
  url: string;
  copied: boolean | undefined;
}

/**
 * The save button (docs/scene-format.md, Saved configurations), shown when the project has `saveConfigEnabled`;
 * disabled in a preview, whose link would name the owner's console, not the merchant's page.
 */
export const saveControls = ({
  strings,
  onSave,
  disabled,
}: {
  strings: ConfigShareStrings;
  onSave: () => void;
  disabled: boolean;
}) =>
  html`<button type="button" part="save-button" ?disabled=${disabled} @click=${onSave}>${strings.saveButton}</button>`;

/**
 * The saved link, read-only so it can be selected and copied, and what became of the copy in a
 * live region ("Link copied"; when the clipboard refused, the link is selected instead).
 */
export const saveLink = (strings: ConfigShareStrings, { url, copied }: SaveState) =>
  html`<div class="save">
    <label
      >${strings.saveLink}
      <input part="save-link" type="url" readonly .value=${url} @focus=${(event: FocusEvent) =>
        (event.target as HTMLInputElement).select()}
    /></label>
    <p class="save-status" role="status">
      ${copied === undefined ? '' : copied ? strings.saveCopied : strings.saveCopyFailed}
    </p>
  </div>`;
