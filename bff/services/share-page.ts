import type { ShareIds } from './share-ids.js';
import { FAVICON_DATA_URL } from './favicon.js';

/**
 * The share link as a page (docs/share-page.md): one small HTML document hosting `<config-share>`,
 * with Open Graph, Twitter card and oEmbed discovery tags and a strict CSP of its own.
 */

/** What the page shows: the element's state the server's answer leads to. */
export type SharePageState = 'ready' | 'password' | 'unavailable' | 'not-found' | 'error';

export interface SharePageInput {
  /** The BFF's origin, as the client reached it (`https://share.example.com`). */
  origin: string;
  /** The share, shape-checked; null when the path cannot name one (the page then has no element). */
  ids: ShareIds | null;
  state: SharePageState;
  /** The project, when the payload is known (state `ready`). */
  project?: { name: string; type?: string };
}

/** Where the page's own files live on the BFF (served from `bff/viewer/`). */
const VIEWER_ASSETS = '/viewer/';

/** The preview card of every share (the payload has no image of its own): 1200 x 630, a PNG. */
export const PREVIEW_IMAGE = {
  path: `${VIEWER_ASSETS}preview.png`,
  width: 1200,
  height: 630,
  alt: 'An interactive 3D configurator',
} as const;

const SITE_NAME = 'config-share';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or an attribute value (always double-quoted here) made safe for HTML. */
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => ESCAPES[char]);

// eslint-disable-next-line no-control-regex -- control characters are exactly what a one-line name must lose
const CONTROL_OR_SPACE = /[\u0000-\u001f\u007f\s]+/g;

/** Project names are the owner's free text: one line, bounded, for titles and card tags. */
export function displayName(name: string): string {
  const line = name.replace(CONTROL_OR_SPACE, ' ').trim();
  const chars = Array.from(line);
  return chars.length > 120 ? `${chars.slice(0, 119).join('')}…` : line || 'Untitled project';
}

/** The link itself, on this BFF: the page's canonical URL and what the oEmbed iframe loads. */
export const sharePageUrl = (origin: string, { projectId, token }: ShareIds) =>
  `${origin}/share/${encodeURIComponent(projectId)}/${encodeURIComponent(token)}`;

/** The oEmbed endpoint's URL for a share link. */
const oembedUrl = (origin: string, shareUrl: string) =>
  `${origin}/oembed?url=${encodeURIComponent(shareUrl)}&format=json`;

function texts(input: SharePageInput): { title: string; description: string } {
  switch (input.state) {
    case 'ready': {
      const name = displayName(input.project?.name ?? '');
      return { title: name, description: `View ${name} in 3D and configure it in your browser.` };
    }
    case 'password':
      return { title: 'Password required', description: 'This shared 3D project is protected by a password.' };
    case 'unavailable':
      return { title: 'Not available', description: 'This shared 3D project is not available right now.' };
    case 'not-found':
      return {
        title: 'Not available',
        description: 'This share link is not available. It may have been turned off or replaced by a new link.',
      };
    case 'error':
      return {
        title: 'Something went wrong',
        description: 'The shared 3D project could not be loaded. Please try again in a moment.',
      };
  }
}

/**
 * connect-src and img-src stay open because model files come from signed URLs whose origins the BFF does
 * not know; 'wasm-unsafe-eval' lets model-viewer's decoders compile without allowing JavaScript eval.
 */
export function sharePageSecurityPolicy(frameAncestors: string): string {
  return [
    "default-src 'none'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self' blob:",
    // model-viewer (AR) puts a <style> in its shadow root; inline styles cannot run script.
    "style-src 'self' 'unsafe-inline'",
    'img-src * data: blob:',
    'connect-src *',
    "base-uri 'none'",
    // The element's add-to-cart posts the line to the project's `cart.action`: an https: URL or a path on this origin.
    "form-action 'self' https:",
    "object-src 'none'",
    frameAncestors,
  ].join('; ');
}

/** The page's HTML. Every value from the payload or the URL is escaped; ids are shape-checked by the caller. */
export function renderSharePage(input: SharePageInput): string {
  const { origin, ids, state } = input;
  const { title, description } = texts(input);
  const e = escapeHtml;
  const pageUrl = ids ? sharePageUrl(origin, ids) : null;
  const image = `${origin}${PREVIEW_IMAGE.path}`;
  const meta: string[] = [
    `<meta name="description" content="${e(description)}">`,
    `<meta property="og:site_name" content="${SITE_NAME}">`,
    `<meta property="og:type" content="website">`,
    `<meta property="og:title" content="${e(title)}">`,
    `<meta property="og:description" content="${e(description)}">`,
    `<meta name="twitter:title" content="${e(title)}">`,
    `<meta name="twitter:description" content="${e(description)}">`,
  ];
  if (state === 'ready') {
    meta.push(
      `<meta property="og:image" content="${e(image)}">`,
      `<meta property="og:image:width" content="${PREVIEW_IMAGE.width}">`,
      `<meta property="og:image:height" content="${PREVIEW_IMAGE.height}">`,
      `<meta property="og:image:alt" content="${e(PREVIEW_IMAGE.alt)}">`,
      `<meta name="twitter:card" content="summary_large_image">`,
      `<meta name="twitter:image" content="${e(image)}">`,
    );
  } else {
    meta.push(`<meta name="twitter:card" content="summary">`, `<meta name="robots" content="noindex, nofollow">`);
  }
  if (pageUrl) {
    meta.push(`<meta property="og:url" content="${e(pageUrl)}">`, `<link rel="canonical" href="${e(pageUrl)}">`);
    if (state === 'ready')
      meta.push(
        `<link rel="alternate" type="application/json+oembed" href="${e(oembedUrl(origin, pageUrl))}" ` +
          `title="${e(title)}">`,
      );
  }
  // The element reads the share itself; the paragraph inside shows until it is defined (and without script).
  const fallback = `<p class="fallback">${e(state === 'ready' ? `Loading ${title}…` : description)}</p>`;
  const body = ids
    ? `<config-share project-id="${e(ids.projectId)}" token="${e(ids.token)}">${fallback}</config-share>`
    : `<main class="static">${fallback}</main>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title>
<link rel="icon" href="${FAVICON_DATA_URL}">
${meta.join('\n')}
<link rel="stylesheet" href="${VIEWER_ASSETS}page.css">
${ids ? '<script type="module" src="/element/config-share.js"></script>' : ''}
</head>
<body data-state="${e(state)}">
${body}
<noscript><p class="noscript">The 3D viewer needs JavaScript.</p></noscript>
</body>
</html>
`;
}
