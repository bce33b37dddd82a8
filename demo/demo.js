// The QA panel of the demo page: loads <config-share> for each prepared share and shows its
// state attribute and events as they happen. Plain browser JavaScript, served as is by the BFF.

const EVENTS = [
  'config-share-load',
  'config-share-error',
  'config-share-password-required',
  'config-share-model-missing',
  'config-share-submit',
];

const slot = document.getElementById('viewer-slot');
const statesGroup = document.getElementById('states');
const stateOut = document.getElementById('state');
const expectedOut = document.getElementById('expected');
const hintOut = document.getElementById('hint');
const eventsList = document.getElementById('events');
let observer = null;

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
  observer = new MutationObserver(() => (stateOut.textContent = element.getAttribute('state') ?? '–'));
  observer.observe(element, { attributes: true, attributeFilter: ['state'] });
  slot.append(element);
  expectedOut.textContent = expect ?? '–';
  hintOut.textContent = password ? `The password is "${password}".` : (label ?? '–');
}

async function main() {
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
