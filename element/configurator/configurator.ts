import { html, nothing } from 'lit';
import {
  computePrice,
  encodeConfiguration,
  formatMoney,
  parseScene,
  resolveOptions,
  type Options,
  type Price,
  type ResolvedOptions,
  type Scene,
} from '#core/wire/configurator/index.js';
import type { PublicProject } from '#core/wire/public-project.js';
import { DEFAULT_STRINGS, format, type ConfigShareStrings } from '../features/strings.js';
import { CONFIGURATOR_STRINGS } from './strings.js';
import { emitFrom, type ConfiguratorHost } from './host.js';
import { formattingLocale } from './locale.js';
import { restoreRequest } from './restore.js';
import { optionsPanel } from './options-panel.js';
import { priceDisplay } from './price-display.js';
import { animationButtons } from './animation-buttons.js';
import { saveControls, saveLink, type SaveState } from './save.js';
import { Cart } from './cart.js';
import { adoptConfiguratorStyles } from './styles.js';

/** Where a selection change came from (element/README.md, API). */
export type ChangeSource = 'visitor' | 'api' | 'rule';

/** How long after a visitor's change the price region announces the new total. */
const ANNOUNCE_DELAY_MS = 500;

/** What `getConfiguration()` answers (element/README.md, API). */
export interface ConfigurationSnapshot {
  configuration: string;
  options: Options;
  fields: Record<string, number>;
  price: Price | null;
}

/**
 * The configurator of one payload (docs/scene-format.md): the element owns the payload and the viewer, this owns
 * everything the selections decide.
 */
export class Configurator {
  readonly scene: Scene;
  private resolved: ResolvedOptions;
  private fields: Record<string, number> = {};
  private price: Price | null = null;
  /** The price the `price` region shows: updated at once at load, 500 ms after a change. */
  private shownPrice: Price | null = null;
  private announceTimer?: ReturnType<typeof setTimeout>;
  private save?: SaveState;
  /** Repeat and pingpong buttons that are playing. */
  private readonly pressed = new Set<string>();
  /** The add-to-cart button, when the cart is enabled (docs/cart.md). */
  private readonly cart?: Cart;

  constructor(
    private readonly host: ConfiguratorHost,
    private readonly project: PublicProject,
    /** The visitor's selections on the previous revision of this share: they stay where still valid. */
    keep: Options | undefined,
  ) {
    this.scene = parseScene(project.data).scene;
    const element = host.element;
    const { saved, problem } = keep
      ? { saved: { options: keep }, problem: undefined }
      : restoreRequest(host.target.projectId, element.getAttribute('configuration'), location.hash);
    this.resolved = resolveOptions(this.scene, saved?.options);
    const stale = keep ? [] : this.resolved.ignored;
    if (problem || stale.length > 0)
      emitFrom(element, 'config-share-error', {
        type: 'configuration',
        message: problem ?? `Saved options left out (unknown, unavailable or inactive): ${stale.join(', ')}.`,
      });
    for (const id of this.formulaFields) {
      const value = saved?.fields?.[id];
      if (typeof value === 'number' && Number.isFinite(value)) this.fields[id] = value;
    }
    this.reprice(false);
    if (this.scene.settings.cart.enabled)
      this.cart = new Cart(
        host,
        this.scene.settings.cart,
        () => this.strings,
        () => this.cartSelection(),
      );
    adoptConfiguratorStyles(element, this.scene, project.data);
    void element.updateComplete.then(() => this.fillFields());
  }

  get options(): Options {
    return this.resolved.options;
  }

  get showForm(): boolean {
    return this.scene.settings.display.showForm;
  }

  private get strings(): ConfigShareStrings {
    return { ...DEFAULT_STRINGS, ...CONFIGURATOR_STRINGS, ...this.host.strings() };
  }

  private get locale() {
    return formattingLocale(this.host.element.getAttribute('locale'), this.scene.settings.pricing.locale);
  }

  /** The number fields a formula step reads: the only fields a saved configuration keeps. */
  private get formulaFields(): string[] {
    return this.scene.formula.flatMap((step) => (step.operand.kind === 'field' ? [step.operand.field] : []));
  }

  money(amount: number, delta = false) {
    return formatMoney(amount, this.scene.settings.pricing, this.locale, { delta });
  }

  /** False for an unknown block or choice, a hidden or disabled choice, or an inactive block. */
  setOption(blockId: string, choiceId: string, source: 'visitor' | 'api'): boolean {
    const block = this.scene.optionBlocks.find((candidate) => candidate.id === blockId);
    const state = this.resolved.blocks[blockId];
    if (!block || !state?.active || !block.choices.some((choice) => choice.id === choiceId)) return false;
    if (state.hidden.includes(choiceId) || state.disabled.includes(choiceId)) return false;
    if (this.resolved.options[blockId] !== choiceId)
      this.select({ ...this.options, [blockId]: choiceId }, blockId, source);
    return true;
  }

  /** The attribute set again after load: each saved selection applies as a `setOption` call would. */
  applyAttribute(text: string | null) {
    const { saved, problem } = restoreRequest(this.host.target.projectId, text, '');
    const refused = Object.entries(saved?.options ?? {}).filter(
      ([blockId, choiceId]) => !this.setOption(blockId, String(choiceId), 'api'),
    );
    if (problem || refused.length > 0)
      emitFrom(this.host.element, 'config-share-error', {
        type: 'configuration',
        message: problem ?? `Saved options left out: ${refused.map(([blockId]) => blockId).join(', ')}.`,
      });
  }

  private select(requested: Options, blockId: string, source: 'visitor' | 'api') {
    const before = this.options;
    this.resolved = resolveOptions(this.scene, requested);
    const after = this.options;
    void this.host.viewer()?.then((viewer) => viewer?.configure(after));
    // The change events carry the new price; its own event follows them.
    const price = computePrice(this.scene, after, this.fields);
    for (const block of this.scene.optionBlocks) {
      const [choiceId, previousChoiceId] = [after[block.id] ?? null, before[block.id] ?? null];
      if (choiceId === previousChoiceId) continue;
      const cause: ChangeSource = block.id === blockId ? source : 'rule';
      emitFrom(this.host.element, 'config-share-option-change', {
        blockId: block.id,
        choiceId,
        previousChoiceId,
        source: cause,
        options: after,
        price,
      });
      if (cause !== 'rule')
        this.host.track('option.changed', {
          blockId: block.id,
          choiceId,
          previousChoiceId,
          source: cause,
          options: after,
        });
      this.choiceAnimations(block.id, choiceId, previousChoiceId, cause === 'visitor');
    }
    this.reprice(source === 'visitor', price);
    this.rendered(blockId);
  }

  /** `choice` triggers: forward when their choice is selected, backward when it is left (if `reverse`). */
  private choiceAnimations(
    blockId: string,
    choiceId: string | null,
    previousChoiceId: string | null,
    visitor: boolean,
  ) {
    for (const animation of this.scene.animations) {
      if (animation.trigger !== 'choice' || animation.on?.blockId !== blockId) continue;
      if (animation.on.choiceId === choiceId) this.play(animation.id, 'forward', 'choice', visitor);
      else if (animation.on.choiceId === previousChoiceId && animation.reverse)
        void this.host.viewer()?.then((viewer) => viewer?.playAnimation(animation.id, 'backward'));
    }
  }

  /**
   * Plays an animation block. `trigger` names what asked (a button, a choice, the page's script);
   * a visitor's button or choice is also a visitor event.
   */
  async play(
    animationId: string,
    how: 'play' | 'forward',
    trigger: 'button' | 'choice' | 'api',
    visitor = false,
  ): Promise<boolean> {
    const viewer = await this.host.viewer();
    if (!viewer?.playAnimation(animationId, how)) return false;
    emitFrom(this.host.element, 'config-share-animation', { animationId, trigger });
    if (visitor && trigger !== 'api') this.host.track('animation.triggered', { animationId, trigger });
    return true;
  }

  /** Once the models are drawn, restored and default choices hold their animations' end pose. */
  viewerReady() {
    void this.host.viewer()?.then((viewer) => {
      for (const animation of this.scene.animations)
        if (
          animation.trigger === 'choice' &&
          animation.on &&
          this.options[animation.on.blockId] === animation.on.choiceId
        )
          viewer?.playAnimation(animation.id, 'end');
    });
  }

  /** A form field changed: number fields the formula reads reprice at once. */
  fieldsChanged(form: HTMLFormElement) {
    const fields: Record<string, number> = {};
    for (const id of this.formulaFields) {
      const input = form.elements.namedItem(id) as HTMLInputElement | null;
      const value = input?.value ? Number(input.value) : NaN;
      if (Number.isFinite(value)) fields[id] = value;
    }
    if (JSON.stringify(fields) === JSON.stringify(this.fields)) return;
    this.fields = fields;
    this.reprice(true);
  }

  /** Restored field values go into the form once it is drawn (in place of the fields' defaults). */
  private fillFields() {
    for (const [id, value] of Object.entries(this.fields)) {
      const input = this.host.element.renderRoot.querySelector<HTMLInputElement>(
        `[part="form"] [name="${CSS.escape(id)}"]`,
      );
      if (input) input.value = String(value);
    }
  }

  private reprice(announce: boolean, price = computePrice(this.scene, this.options, this.fields)) {
    if (JSON.stringify(price) !== JSON.stringify(this.price)) {
      this.price = price;
      if (price) {
        emitFrom(this.host.element, 'config-share-price', { price });
        this.host.track('price.calculated', {
          options: this.options,
          fields: this.fields,
          total: price.total,
          currency: price.currency,
        });
      }
    }
    clearTimeout(this.announceTimer);
    if (!announce) this.shownPrice = price;
    else
      this.announceTimer = setTimeout(() => {
        this.shownPrice = this.price;
        this.host.element.requestUpdate();
      }, ANNOUNCE_DELAY_MS);
    this.host.element.requestUpdate();
  }

  /** The saved configuration of what is selected now (docs/scene-format.md, Saved configurations). */
  configuration(): string {
    const fields = Object.keys(this.fields).length > 0 ? { fields: this.fields } : {};
    return encodeConfiguration({ projectId: this.host.target.projectId, options: this.options, ...fields });
  }

  /** What the cart sends: the saved configuration's options and fields (docs/cart.md, Creating a configuration). */
  private cartSelection() {
    const fields = Object.keys(this.fields).length > 0 ? { fields: { ...this.fields } } : {};
    return { options: this.options, ...fields, configuration: this.configuration() };
  }

  snapshot(): ConfigurationSnapshot {
    return {
      configuration: this.configuration(),
      options: this.options,
      fields: { ...this.fields },
      price: this.price,
    };
  }

  /** What a submit sends from the configurator: the active blocks' selections, their summary and the price shown. */
  submitValues() {
    const strings = this.strings;
    const lines = this.scene.optionBlocks.flatMap((block) => {
      const choice = block.choices.find((candidate) => candidate.id === this.options[block.id]);
      return choice ? [`${block.name}: ${choice.label}`] : [];
    });
    const { price } = this;
    if (price && this.scene.settings.pricing.showPrices)
      lines.push(format(strings.summaryTotal, { total: this.money(price.total) }));
    return {
      selectedOptions: this.options,
      summary: lines,
      price: price ? { total: price.total, currency: price.currency } : undefined,
    };
  }

  private async saveClicked() {
    const configuration = this.configuration();
    const url = `${location.href.split('#')[0]}#cs=${configuration}`;
    if (!emitFrom(this.host.element, 'config-share-save', { configuration, url }, true)) return;
    this.host.track('configuration.saved');
    this.save = { url, copied: undefined };
    this.host.element.requestUpdate();
    const copied = await navigator.clipboard?.writeText(url).then(
      () => true,
      () => false,
    );
    this.save = { url, copied: !!copied };
    this.host.element.requestUpdate();
    await this.host.element.updateComplete;
    // Copy failed: the link is selected, so the visitor can copy it by hand.
    if (!copied) this.host.element.renderRoot.querySelector<HTMLInputElement>('[part="save-link"]')?.select();
  }

  /** After a change is drawn: focus a rule removed goes to the changed block's checked choice. */
  private rendered(blockId: string) {
    const root = this.host.element.renderRoot as ShadowRoot;
    const focused = root.activeElement as HTMLInputElement | null;
    const name = focused?.name;
    void this.host.element.updateComplete.then(() => {
      if (!focused || focused.isConnected || !name) return;
      const block = name.startsWith('option:') ? name : `option:${blockId}`;
      root
        .querySelector<HTMLInputElement>(`[name="${CSS.escape(block)}"]:checked, [name="${CSS.escape(block)}"]`)
        ?.focus();
    });
  }

  /** The logo, the options, the price, the cart, the animation buttons and the save controls, in that order. */
  render() {
    const strings = this.strings;
    const { settings } = this.scene;
    const logo = settings.branding.logoUrl;
    return html`
      ${logo ? html`<img part="logo" src=${logo} alt=${this.project.name} />` : nothing}
      ${
        settings.display.showOptions
          ? optionsPanel({
              scene: this.scene,
              resolved: this.resolved,
              strings,
              delta:
                settings.pricing.showPrices && settings.pricing.showDeltas
                  ? (amount) => this.money(amount, true)
                  : null,
              onChange: (blockId, choiceId) => this.setOption(blockId, choiceId, 'visitor'),
            })
          : nothing
      }
      ${
        this.price && settings.pricing.showPrices
          ? priceDisplay({
              strings,
              shown: this.shownPrice ?? this.price,
              price: this.price,
              money: (n) => this.money(n),
            })
          : nothing
      }
      ${this.cart?.render() ?? nothing}
      ${animationButtons({
        animations: this.scene.animations,
        pressed: this.pressed,
        onClick: (animation) => {
          if (animation.loop !== 'once' && !this.pressed.delete(animation.id)) this.pressed.add(animation.id);
          this.host.element.requestUpdate();
          void this.play(animation.id, 'play', 'button', true);
        },
      })}
      ${
        this.scene.saveConfigEnabled
          ? saveControls({
              strings,
              onSave: () => void this.saveClicked(),
              disabled: this.host.element.previewing,
            })
          : nothing
      }
      ${this.save ? saveLink(strings, this.save) : nothing}
    `;
  }
}
