import { html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { currencyDecimals } from '#core/wire/configurator/currency-decimals.js';
import { computePrice, formatMoney, parseScene, resolveOptions } from '#core/wire/configurator/index.js';
import { FACTOR_DIGITS } from '#core/wire/configurator/parse-pricing.js';
import { entryName, isRecord, listAt, type Json } from './draft-edit.js';
import { PanelElement } from './panel-element.js';
import { amountRule, MAX_ID_LENGTH, MAX_LABEL_LENGTH, MAX_OWNER_NUMBER } from './prices.js';
import { blockSummaries, FORM_FIELDS, FORMULA, idOf, PRICING_BLOCKS, SETTINGS } from './scene-lists.js';
import './when-editor.js';
import { MAX_FORMULA_STEPS as MAX_STEPS, MAX_PRICING_BLOCKS } from '#core/wire/configurator/parse-pricing.js';

const PRICING = [...SETTINGS, 'pricing'];
const COMMON_CURRENCIES = ['EUR', 'USD', 'GBP', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'CAD', 'AUD', 'JPY'];
const OPS = [
  ['add', 'Add'],
  ['multiply', 'Multiply by'],
  ['min', 'Cap at (at most)'],
  ['max', 'Floor at (at least)'],
  ['round', 'Round to a multiple of'],
] as const;
const ROUND_MODES = [
  ['', 'Half up (default)'],
  ['half-even', 'Half even'],
  ['up', 'Up'],
  ['down', 'Down'],
] as const;

/** The Price panel: currency and tax, pricing blocks, the formula, and the default configuration's price. */
@customElement('editor-price-panel')
export class PricePanel extends PanelElement {
  /** The owner chose "Other" for the currency: a text field takes any ISO 4217 code. */
  @state() private otherCurrency = false;
  @state() private currencyError = '';

  private defaultPrice(): string | null {
    const { scene } = parseScene(this.data);
    const price = computePrice(scene, resolveOptions(scene, {}).options, {});
    if (!price) return null;
    return formatMoney(price.total, price, scene.settings.pricing.locale ?? undefined);
  }

  private setCurrency(raw: string) {
    const code = raw.trim().toUpperCase();
    if (code !== '' && currencyDecimals(code) === null) {
      this.currencyError = `Currency must be an ISO 4217 code such as EUR or USD; "${code}" is not one.`;
      return;
    }
    this.currencyError = '';
    this.commit([...PRICING, 'currency'], code || undefined, code ? `Set currency ${code}` : 'Remove currency');
  }

  private currencyField() {
    const stored = this.get([...PRICING, 'currency']);
    const current = typeof stored === 'string' ? stored.toUpperCase() : '';
    const other = this.otherCurrency || (current !== '' && !COMMON_CURRENCIES.includes(current));
    return html`<div class="field">
      <label>
        Currency
        <select
          @change=${(event: Event) => {
            const value = (event.target as HTMLSelectElement).value;
            this.otherCurrency = value === 'other';
            if (value !== 'other') this.setCurrency(value);
          }}
        >
          <option value="" ?selected=${current === '' && !other}>None (plain numbers)</option>
          ${COMMON_CURRENCIES.map(
            (code) => html`<option value=${code} ?selected=${!other && code === current}>${code}</option>`,
          )}
          <option value="other" ?selected=${other}>Other…</option>
        </select>
      </label>
      ${
        other
          ? html`<label>
            Currency code
            <input
              type="text"
              maxlength="3"
              .value=${current}
              @change=${(e: Event) => this.setCurrency((e.target as HTMLInputElement).value)}
            />
          </label>`
          : nothing
      }
      ${this.currencyError ? html`<p class="error" role="alert">${this.currencyError}</p>` : nothing}
      ${this.warningList([...PRICING, 'currency'])} ${this.warningList([...SETTINGS, 'currency'])}
    </div>`;
  }

  private taxFields() {
    const tax = this.get([...PRICING, 'tax']);
    if (!isRecord(tax)) {
      return html`<div class="field wide">
        <button
          type="button"
          @click=${() => this.commit([...PRICING, 'tax'], { rate: 0, included: true, label: 'Tax' }, 'Add tax')}
        >
          Add tax</button>
        ${this.warningList([...PRICING, 'tax'])}
      </div>`;
    }
    const at = (key: string) => [...PRICING, 'tax', key];
    return html`<fieldset class="wide">
      <legend>Tax</legend>
      <div class="grid">
        ${this.numberField({
          label: 'Tax rate (%)',
          path: at('rate'),
          scale: 100,
          rule: { name: 'Tax rate', min: 0, max: 100 },
          edit: 'Set tax rate',
          help: '19 for 19 %.',
        })}
        ${this.textField({
          label: 'Tax label',
          path: at('label'),
          edit: 'Set tax label',
          placeholder: 'Tax',
          maxLength: MAX_LABEL_LENGTH,
        })}
        ${this.selectField({
          label: 'Prices',
          path: at('included'),
          edit: 'Change how tax applies',
          choices: [
            ['true', 'Include the tax (reported as a share)'],
            ['false', 'Add the tax on top'],
          ],
          parse: (value) => value === 'true',
          fallback: 'true',
        })}
        <div class="field actions">
          <button
            type="button"
            class="danger"
            @click=${() => this.commit([...PRICING, 'tax'], undefined, 'Remove tax')}
          >
            Remove tax</button></div>
      </div>
      ${this.warningList([...PRICING, 'tax'], true)}
    </fieldset>`;
  }

  private settingsSection() {
    const at = (key: string) => [...PRICING, key];
    return html`<section class="card" aria-label="Currency and tax">
      <h3>Currency and tax</h3>
      ${this.warningList(PRICING, true)}
      <div class="grid">
        ${this.currencyField()}
        ${this.textField({
          label: 'Locale',
          path: at('locale'),
          edit: 'Set locale',
          placeholder: 'de-DE',
          help: 'How prices are written (BCP 47), e.g. de-DE or en-GB.',
          maxLength: 64,
        })}
        ${this.checkField({
          label: 'Show prices',
          path: at('showPrices'),
          fallback: this.get([...SETTINGS, 'showPrices']) !== false,
          edit: 'Change show prices',
          help: 'Off: prices are still computed and stored.',
        })}
        ${this.checkField({
          label: 'Show price differences beside choices',
          path: at('showDeltas'),
          fallback: true,
          edit: 'Change show deltas',
        })}
        ${this.selectField({
          label: 'Rounding',
          path: at('rounding'),
          edit: 'Change rounding',
          choices: [
            ['', 'Half up (default)'],
            ['half-even', 'Half even (banker’s)'],
          ],
        })}
        ${this.taxFields()}
      </div>
    </section>`;
  }

  private pricingBlocksSection() {
    const list = listAt(this.data, PRICING_BLOCKS);
    return html`<section class="card" aria-label="Pricing blocks">
      <h3>Price lines</h3>
      <p class="help">A base price or a surcharge, counted while its condition holds.</p>
      ${this.warningList(PRICING_BLOCKS, true)}
      ${list.map((_, i) => {
        const path = [...PRICING_BLOCKS, i];
        const name = entryName(list[i], i, 'label');
        return html`<div class="card nested">
          <div
            class="card-head"
          >
            <h4
            >
              ${name}</h4>
            ${this.warningCount(path)} ${this.listTools(PRICING_BLOCKS, list, i, `price line "${name}"`)}
          </div>
          ${this.warningList(path, true)}
          <div class="grid">
            ${this.textField({
              label: 'Label',
              path: [...path, 'label'],
              edit: `Rename price line "${name}"`,
              maxLength: MAX_LABEL_LENGTH,
            })}
            ${this.numberField({
              label: 'Price',
              path: [...path, 'price'],
              rule: amountRule('Price'),
              edit: `Set price of "${name}"`,
              placeholder: '0',
            })}
            ${this.textField({
              label: 'SKU',
              path: [...path, 'sku'],
              edit: `Set SKU of "${name}"`,
              maxLength: MAX_ID_LENGTH,
            })}
            ${this.textField({
              label: 'Line id',
              path: [...path, 'id'],
              edit: `Change id of "${name}"`,
              maxLength: MAX_ID_LENGTH,
              help: 'Optional; names the line in the price breakdown.',
            })}
          </div>
          <editor-when
            .data=${this.data}
            .warnings=${this.warnings}
            .path=${[...path, 'when']}
            subject=${`price line "${name}"`}
          >
            </editor-when>
        </div>`;
      })}
      ${
        list.length < MAX_PRICING_BLOCKS
          ? html`<button type="button" @click=${() =>
              this.commit(
                PRICING_BLOCKS,
                [...list, { label: list.length ? 'Surcharge' : 'Base price', price: 0 }],
                'Add a price line',
              )}>Add a price line</button>`
          : nothing
      }
    </section>`;
  }

  private operandField(path: (string | number)[], step: Json, name: string) {
    const kind = step.field !== undefined ? 'field' : step.option !== undefined ? 'option' : 'value';
    const numberFields = listAt(this.data, FORM_FIELDS).filter((f) => isRecord(f) && f.type === 'number');
    const blocks = blockSummaries(this.data);
    const switchTo = (next: string) => {
      const { value: _v, field: _f, option: _o, ...rest } = step;
      const first = next === 'field' ? idOf(numberFields[0]) : next === 'option' ? (blocks[0]?.id ?? '') : 0;
      this.commit(path, { ...rest, [next]: first }, `Change operand of ${name}`);
    };
    const idSelect = (key: 'field' | 'option', label: string, choices: [string, string][]) =>
      this.selectField({ label, path: [...path, key], edit: `Change ${label.toLowerCase()} of ${name}`, choices });
    return html`<div class="field">
        <label>
          Operand
          <select @change=${(event: Event) => switchTo((event.target as HTMLSelectElement).value)}>
            <option value="value" ?selected=${kind === 'value'}>A number</option>
            <option value="field" ?selected=${kind === 'field'}>A number form field</option>
            <option value="option" ?selected=${kind === 'option'}>The chosen value of a block</option>
          </select>
        </label>
      </div>
      ${
        kind === 'value'
          ? this.numberField({
              label: step.op === 'multiply' ? 'Factor' : 'Amount',
              path: [...path, 'value'],
              rule:
                step.op === 'round'
                  ? { name: 'The rounding step', min: 0, max: MAX_OWNER_NUMBER, minExclusive: true }
                  : amountRule(step.op === 'multiply' ? 'Factor' : 'Amount'),
              edit: `Set amount of ${name}`,
              help: step.op === 'multiply' ? `Exact to ${FACTOR_DIGITS} decimals.` : undefined,
            })
          : kind === 'field'
            ? idSelect(
                'field',
                'Form field',
                numberFields.map((f, i) => [idOf(f), entryName(f, i, 'label')]),
              )
            : idSelect(
                'option',
                'Block',
                blocks.map((b) => [b.id, b.name]),
              )
      }`;
  }

  private formulaSection() {
    const list = listAt(this.data, FORMULA);
    return html`<section class="card" aria-label="Price formula">
      <h3>Formula</h3>
      <p class="help">Steps applied in order to the sum of the price lines and choices, e.g. × quantity.</p>
      ${this.warningList(FORMULA, true)}
      ${list.map((entry, i) => {
        const path = [...FORMULA, i];
        const step = isRecord(entry) ? entry : {};
        const name = `step ${i + 1}`;
        return html`<div class="card nested">
          <div
            class="card-head"
          >
            <h4
            >
              Step ${i + 1}${typeof step.label === 'string' ? `: ${step.label}` : ''}</h4>
            ${this.warningCount(path)} ${this.listTools(FORMULA, list, i, `formula ${name}`)}
          </div>
          ${this.warningList(path, true)}
          <div class="grid">
            ${this.selectField({
              label: 'Operation',
              path: [...path, 'op'],
              edit: `Change operation of ${name}`,
              choices: OPS,
            })}
            ${
              step.op === 'round'
                ? this.selectField({
                    label: 'Round mode',
                    path: [...path, 'mode'],
                    edit: `Change round mode of ${name}`,
                    choices: ROUND_MODES,
                  })
                : nothing
            }
            ${this.operandField(path, step, name)}
            ${this.textField({
              label: 'Label',
              path: [...path, 'label'],
              edit: `Rename ${name}`,
              maxLength: MAX_LABEL_LENGTH,
              help: 'The line shown in the price breakdown.',
            })}
          </div>
          <editor-when
            .data=${this.data}
            .warnings=${this.warnings}
            .path=${[...path, 'when']}
            subject=${`formula ${name}`}
          >
            </editor-when>
        </div>`;
      })}
      ${
        list.length < MAX_STEPS
          ? html`<button type="button" @click=${() =>
              this.commit(
                FORMULA,
                [...list, { op: 'add', value: 0 }],
                'Add a formula step',
              )}>Add a formula step</button>`
          : nothing
      }
    </section>`;
  }

  override render() {
    const price = this.defaultPrice();
    return html`
      <p
        class="panel-intro total"
        aria-live="polite"
      >
        ${price === null ? 'No pricing yet: add a price line or a choice price.' : `Default price: ${price}`}</p>
      ${this.settingsSection()} ${this.pricingBlocksSection()} ${this.formulaSection()}`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'editor-price-panel': PricePanel;
  }
}
