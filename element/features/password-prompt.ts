import { css, html, type LitElement } from 'lit';
import type { LoaderStrings } from './strings.js';

/**
 * **Lazy chunk**, fetched when a share first asks for a password: the prompt, and the order its checks run in. One
 * check runs at a time (each costs the server about a second); a password entered meanwhile is checked next, and
 * the answer for the older one is then dropped, so the latest password entered always wins.
 */

/** What the prompt needs from the element. */
export interface PasswordHost {
  element: LitElement;
  /** Reads the share with this password and applies the answer, unless `superseded()` is true by then. */
  check(password: string, superseded: () => boolean): Promise<void>;
}

/** What the prompt shows. */
export interface PasswordView {
  strings: LoaderStrings;
  /** A check is under way. */
  busy: boolean;
  /** The password the last answer refused, if it did. */
  refused?: string;
}

/** The prompt's look (the element's button, with a spinner while a check runs), adopted when the chunk arrives. */
const promptStyles = css`
  [part='password-form'] { gap: 0.5rem; padding: var(--_gap); max-width: 24rem; }
  [part='password-form'] button { display: inline-flex; align-items: center; gap: 0.5rem; }
  .spinner {
    width: 1em;
    height: 1em;
    border: 2px solid currentColor;
    border-inline-end-color: transparent;
    border-radius: 50%;
    animation: config-share-spin 0.8s linear infinite;
  }
  @keyframes config-share-spin { to { transform: rotate(1turn); } }
  @media (prefers-reduced-motion: reduce) { .spinner { animation-duration: 2.4s; } }
`;

const checking = (strings: LoaderStrings) =>
  html`<span class="spinner" aria-hidden="true"></span>${strings.passwordChecking}`;

/** One prompt, from the moment a share asks for a password until it is accepted. */
export class PasswordPrompt {
  /** What the field holds: a refusal shows only beside the very password it refused, never beside a new one. */
  private typed = '';
  /** The password being checked. */
  private checking?: string;
  /** The password entered while another was checked: checked next. */
  private next?: string;

  constructor(private readonly host: PasswordHost) {
    const root = host.element.renderRoot as ShadowRoot;
    const sheet = promptStyles.styleSheet!;
    if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  }

  /** Checks a password now, or next if a check is under way (a later one replaces it: the latest entered wins). */
  async submit(password: string): Promise<void> {
    this.typed = password;
    if (this.checking !== undefined) {
      this.next = password === this.checking ? undefined : password;
      return;
    }
    for (let candidate: string | undefined = password; candidate !== undefined; candidate = this.next) {
      this.checking = candidate;
      this.next = undefined;
      await this.host.check(candidate, () => this.next !== undefined);
    }
    this.checking = undefined;
  }

  /** The form: a labelled field with its error in place (the element moves focus to it); "Checking…" meanwhile. */
  render({ strings, busy, refused }: PasswordView) {
    const invalid = refused !== undefined && refused === this.typed;
    const submit = (event: SubmitEvent) => {
      event.preventDefault();
      const input = (event.currentTarget as HTMLFormElement).elements.namedItem('password') as HTMLInputElement;
      if (input.value) void this.submit(input.value);
      else input.focus();
    };
    const input = (event: InputEvent) => {
      this.typed = (event.target as HTMLInputElement).value;
      this.host.element.requestUpdate();
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
        @input=${input}
      />
      <p id="password-error" class="field-error">${invalid ? strings.passwordInvalid : ''}</p>
      <button type="submit">${busy ? checking(strings) : strings.passwordSubmit}</button>
    </form>`;
  }
}
