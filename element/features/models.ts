import type { PublicModel } from '../../server/core/wire/public-project.js';
import { fetchModelUrls, type ShareTarget } from './api.js';
import type { PlacedModel } from './viewer.js';

/**
 * Gives every model of the payload a URL: the read signs only the first 20, the rest come from
 * the model-urls route. Models still without one are reported, never drawn broken.
 */
export async function placeModels(target: ShareTarget, models: PublicModel[], password?: string): Promise<{ placed: PlacedModel[]; missing: string[] }> {
  const unsigned = models.filter((model) => !model.url).map((model) => model.id);
  const urls = unsigned.length ? await fetchModelUrls(target, unsigned, password) : {};
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
