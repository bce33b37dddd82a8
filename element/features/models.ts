import type { PublicModel } from '#core/wire/public-project.js';
import { fetchModelUrls, type ShareTarget } from './api.js';
import type { PlacedModel } from './viewer.js';

/**
 * Gives every model of the payload a URL: the read signs only the first 20, the rest come from
 * the model-urls route. Models still without one are reported, never drawn broken.
 */
export async function placeModels(
  target: ShareTarget,
  models: PublicModel[],
  password?: string,
): Promise<{ placed: PlacedModel[]; missing: string[] }> {
  const unsigned = models.filter((model) => !model.url).map((model) => model.id);
  // A preview (no token) names no share to ask: its unsigned models are missing.
  const urls = unsigned.length && target.token ? await fetchModelUrls(target, unsigned, password) : {};
  const placed: PlacedModel[] = [];
  const missing: string[] = [];
  for (const model of models) {
    const url = model.url ?? urls[model.id];
    // Signed URLs are absolute; a relative one is read against the BFF, where the element reads the share.
    if (url) placed.push({ ...model, url: new URL(url, `${target.apiBase}/`).href });
    else missing.push(model.id);
  }
  return { placed, missing };
}

/**
 * Downloads one model file with its progress, started as soon as the URLs are known so files arrive while the 3D chunk
 * loads. Same request as three's loaders make: CORS, credentials only for the page's own origin.
 */
export async function downloadModel(url: string, onProgress: (fraction: number) => void): Promise<ArrayBuffer> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const total = Number(response.headers.get('content-length'));
  if (!response.body || !(total > 0)) return response.arrayBuffer();
  const reader = response.body.getReader();
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    received += value.byteLength;
    onProgress(Math.min(1, received / total));
  }
  return new Blob(parts).arrayBuffer();
}
