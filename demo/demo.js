// The demo page's QA panel: each prepared share's <config-share> with its state, events, price and saved link
// as a shop would see them. Plain browser JavaScript, so the BFF serves it without a build.

const EVENTS = [
  'config-share-load',
  'config-share-error',
  'config-share-password-required',
  'config-share-model-missing',
  'config-share-submit',
  'config-share-option-change',
  'config-share-price',
  'config-share-save',
  'config-share-animation',
  'config-share-add-to-cart',
];

const slot = document.getElementById('viewer-slot');
const statesGroup = document.getElementById('states');
const stateOut = document.getElementById('state');
const expectedOut = document.getElementById('expected');
const hintOut = document.getElementById('hint');
const eventsList = document.getElementById('events');
const priceOut = document.getElementById('live-price');
const taxOut = document.getElementById('live-tax');
const priceLinesOut = document.getElementById('price-lines');
const configurationOut = document.getElementById('configuration');
const apiNote = document.getElementById('api-note');
const quantityInput = document.getElementById('quantity');
const keepLink = document.getElementById('keep-link');
const FROM_PRICE = priceOut.textContent;
let observer = null;
/** The element on show; the configurator buttons act on it. */
let current = null;

function logEvent(event) {
  const item = document.createElement('li');
  const detail =
    event.detail && Object.keys(event.detail).length > 0
      ? ` ${JSON.stringify(event.detail, (key, value) =>
          key === 'project' ? `{ id: ${value?.id}, name: ${value?.name} }` : value,
        )}`
      : '';
  item.textContent = `${new Date().toLocaleTimeString()} ${event.type}${detail}`;
  eventsList.prepend(item);
}

/** Replaces the element with a new one for this share, and watches it. */
function show({ projectId, token, expect, password, label }) {
  observer?.disconnect();
  slot.replaceChildren();
  const element = document.createElement('config-share');
  element.setAttribute('project-id', projectId);
  element.setAttribute('token', token);
  for (const name of EVENTS) element.addEventListener(name, logEvent);
  element.addEventListener('config-share-price', (event) => showPrice(event.detail?.price));
  element.addEventListener('config-share-option-change', (event) => showOptions(event.detail?.options));
  element.addEventListener('config-share-save', onSave);
  // Defaults and restores send no option-change: read the state once the element is ready, and again once its
  // scene is drawn (the configurator may arrive after the load and the first price).
  element.addEventListener('config-share-load', () => void refreshConfiguration());
  element.addEventListener('config-share-rendered', () => void refreshConfiguration());
  current = element;
  showPrice(undefined);
  showOptions({});
  document.getElementById('saved').hidden = true;
  quantityInput.value = '1';
  observer = new MutationObserver(() => (stateOut.textContent = element.getAttribute('state') ?? '–'));
  observer.observe(element, { attributes: true, attributeFilter: ['state'] });
  slot.append(element);
  expectedOut.textContent = expect ?? '–';
  hintOut.textContent = password ? `The password is "${password}".` : (label ?? '–');
}

/** `amount` in minor units, as the element's price carries it, in the page's language. */
function money(amount, price) {
  const major = amount / 10 ** price.decimals;
  const digits = { minimumFractionDigits: price.decimals, maximumFractionDigits: price.decimals };
  return price.currency
    ? new Intl.NumberFormat(document.documentElement.lang, {
        style: 'currency',
        currency: price.currency,
        ...digits,
      }).format(major)
    : new Intl.NumberFormat(document.documentElement.lang, digits).format(major);
}

/** The product's price as a shop shows it next to the element: the total, the tax note, the lines. */
function showPrice(price) {
  if (!price) {
    priceOut.textContent = FROM_PRICE;
    taxOut.textContent = '';
    priceLinesOut.textContent = price === null ? 'this project has no pricing' : '–';
    return;
  }
  priceOut.textContent = money(price.total, price);
  taxOut.textContent = price.tax
    ? `${price.tax.included ? 'incl.' : 'plus'} ${price.tax.label} ${money(price.tax.amount, price)}`
    : '';
  priceLinesOut.textContent = price.lines.map((line) => `${line.label} ${money(line.amount, price)}`).join(' · ');
  void refreshConfiguration();
}

/** Marks each configurator button pressed while its block has its named choice. */
function showOptions(options) {
  for (const button of document.querySelectorAll('.effects button[data-block]'))
    button.setAttribute('aria-pressed', String(options?.[button.dataset.block] === button.dataset.choice));
}

async function refreshConfiguration() {
  if (typeof current?.getConfiguration !== 'function') return;
  const configuration = await current.getConfiguration();
  configurationOut.textContent = configuration ? JSON.stringify(configuration.options) : '–';
  if (configuration) showOptions(configuration.options);
  const quantity = configuration?.fields?.quantity;
  if (typeof quantity === 'number' && document.activeElement !== quantityInput) quantityInput.value = String(quantity);
}

/** The element's saved link, shown as a shop would; with "keep" checked the page takes it instead of the copy. */
function onSave(event) {
  if (keepLink.checked) event.preventDefault();
  const link = document.getElementById('saved-link');
  link.href = event.detail.url;
  link.textContent = event.detail.url;
  document.getElementById('saved').hidden = false;
}

/** Says which part of the element's API this build lacks, instead of failing silently. */
function missing(method) {
  apiNote.hidden = false;
  apiNote.textContent = current
    ? `This build of <config-share> has no ${method}(): the configurator API is not there yet.`
    : 'No element is loaded: pick a share above.';
}

async function toggleChoice(button) {
  if (typeof current?.setOption !== 'function') return missing('setOption');
  const { block, choice } = button.dataset;
  const next = button.getAttribute('aria-pressed') === 'true' ? button.dataset.default : choice;
  const applied = await current.setOption(block, next);
  if (!applied) {
    apiNote.hidden = false;
    apiNote.textContent = `setOption("${block}", "${next}") was refused: unknown, hidden or disabled here.`;
  } else apiNote.hidden = true;
}

async function playTurn() {
  if (typeof current?.playAnimation !== 'function') return missing('playAnimation');
  if (!(await current.playAnimation('turn'))) {
    apiNote.hidden = false;
    apiNote.textContent = 'playAnimation("turn") was refused: this share has no "turn" animation.';
  }
}

/**
 * The quantity goes in as a configuration (element/README.md, API: the attribute takes plain JSON and
 * applies like setOption calls), keeping the current selections.
 */
async function setQuantity() {
  const quantity = Math.round(Number(quantityInput.value));
  if (!current || !Number.isFinite(quantity) || quantity < 1 || quantity > 20) return;
  const configuration = typeof current.getConfiguration === 'function' ? await current.getConfiguration() : null;
  current.setAttribute(
    'configuration',
    JSON.stringify({ options: configuration?.options ?? {}, fields: { quantity } }),
  );
}

async function main() {
  for (const button of document.querySelectorAll('.effects button[data-block]'))
    button.addEventListener('click', () => void toggleChoice(button));
  document.getElementById('play-turn').addEventListener('click', () => void playTurn());
  quantityInput.addEventListener('change', () => void setQuantity());
  document.getElementById('clear-events').addEventListener('click', () => eventsList.replaceChildren());
  document.getElementById('custom').addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(event.target);
    show({
      projectId: String(data.get('projectId')).trim(),
      token: String(data.get('token')).trim(),
      label: 'custom share',
    });
  });

  const res = await fetch('./shares.json', { cache: 'no-store' }).catch(() => null);
  const shares = res?.ok ? (await res.json()).shares : [];
  if (shares.length === 0) {
    document.getElementById('missing-shares').hidden = false;
    return;
  }
  for (const share of shares) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = share.label;
    button.dataset.key = share.key;
    button.setAttribute('aria-pressed', 'false');
    button.addEventListener('click', () => {
      show(share);
      for (const other of statesGroup.querySelectorAll('button'))
        other.setAttribute('aria-pressed', String(other === button));
    });
    statesGroup.append(button);
  }
  const initial = shares.find((share) => share.key === new URLSearchParams(location.search).get('state')) ?? shares[0];
  statesGroup.querySelector(`[data-key="${initial.key}"]`)?.click();
}

void main();
