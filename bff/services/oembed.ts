import { escapeHtml } from './share-page.js';

/**
 * The oEmbed answer for a share link (oembed.com, type `rich`; docs/share-page.md): its `html`
 * is an iframe of the share page, which only the share's allowed hosts may frame.
 */

/** The iframe's size when the consumer sets no bounds: 4:3. */
const OEMBED_DEFAULT_SIZE = { width: 800, height: 600 } as const;

export interface OembedInput {
  /** The share page on this BFF (the iframe's src). */
  pageUrl: string;
  /** The BFF's origin (provider_url). */
  origin: string;
  title: string;
  maxwidth?: number;
  maxheight?: number;
  /** A preview image, offered when it fits the bounds (oEmbed: a thumbnail respects maxwidth and maxheight). */
  thumbnail?: { url: string; width: number; height: number };
}

/** The rich response; the iframe keeps 4:3 and shrinks to fit maxwidth and maxheight. */
export function oembedResponse(input: OembedInput) {
  const scale = Math.min(
    1,
    (input.maxwidth ?? Infinity) / OEMBED_DEFAULT_SIZE.width,
    (input.maxheight ?? Infinity) / OEMBED_DEFAULT_SIZE.height,
  );
  const width = Math.max(1, Math.floor(OEMBED_DEFAULT_SIZE.width * scale));
  const height = Math.max(1, Math.floor(OEMBED_DEFAULT_SIZE.height * scale));
  const html =
    `<iframe src="${escapeHtml(input.pageUrl)}" width="${width}" height="${height}" ` +
    `title="${escapeHtml(input.title)}" ` +
    `style="border:0;max-width:100%" loading="lazy" allow="fullscreen; xr-spatial-tracking" allowfullscreen></iframe>`;
  const thumbnail = input.thumbnail;
  const fits =
    thumbnail && thumbnail.width <= (input.maxwidth ?? Infinity) && thumbnail.height <= (input.maxheight ?? Infinity);
  return {
    type: 'rich' as const,
    version: '1.0' as const,
    title: input.title,
    provider_name: 'config-share',
    provider_url: `${input.origin}/`,
    html,
    width,
    height,
    ...(fits
      ? { thumbnail_url: thumbnail.url, thumbnail_width: thumbnail.width, thumbnail_height: thumbnail.height }
      : {}),
  };
}
