import { html } from 'lit';
import type { ShareTarget } from './api.js';
import type { LoaderStrings } from './strings.js';

/**
 * Passwords accepted during this page session, kept in memory rather than sessionStorage so they never land in the
 * merchant's storage; reload() and other elements of the same share still do not ask again.
 */
const accepted = new Map<string, string>();
const keyOf = ({ projectId, token }: ShareTarget) => `${projectId}/${token}`;

/** The password accepted for this share in this page session, if any. */
export const rememberedPassword = (target: ShareTarget) => accepted.get(keyOf(target));

/** Remembers an accepted password, or forgets it (undefined) once the server refuses it. */
export function rememberPassword(target: ShareTarget, password: string | undefined) {
  if (password === undefined) accepted.delete(keyOf(target));
  else accepted.set(keyOf(target), password);
}

/** What the prompt shows. */
export interface PasswordView {
  strings: LoaderStrings;
  /** The last password was wrong: the message stays next to the field. */
  invalid: boolean;
  busy: boolean;
  onSubmit: (password: string) => void;
}

/** The prompt: a labelled field with its error in place; the element moves focus to it. */
export function passwordTemplate({ strings, invalid, busy, onSubmit }: PasswordView) {
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const input = (event.currentTarget as HTMLFormElement).elements.namedItem('password') as HTMLInputElement;
    if (input.value) onSubmit(input.value);
    else input.focus();
  };
  return html`<form part="password-form" @submit=${submit} aria-busy=${busy}>
    <p id="password-prompt">${strings.passwordPrompt}</p>
    <label for="password">${strings.passwordLabel}</label>
    <input
      id="password"
      name="password"
      type="password"
      autocomplete="current-password"
      required
      aria-invalid=${invalid}
      aria-describedby="password-prompt password-error"
    />
    <p id="password-error" class="field-error">${invalid ? strings.passwordInvalid : ''}</p>
    <button type="submit" ?disabled=${busy}>${strings.passwordSubmit}</button>
  </form>`;
}
