/**
 * The owner console's Content-Security-Policy: the page holds an owner token, so scripts and calls stay on its
 * own origin and the API's (a link's `#api=` to another host cannot receive the token).
 */
export function consoleContentSecurityPolicy(apiBase: string): string {
  const api = originOf(apiBase);
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    // The 3D preview's model-viewer compiles its meshopt decoder (WebAssembly): allowed, not eval.
    'script-src': ["'self'", "'wasm-unsafe-eval'"],
    'connect-src': ["'self'", ...api, 'blob:'],
    // Library thumbnails come from the libraries' own hosts, the preview's textures from blob: URLs.
    'img-src': ['*', 'data:', 'blob:'],
    // Lit's styles are constructable stylesheets; only the templates' style attributes are inline.
    'style-src': ["'self'"],
    'style-src-attr': ["'unsafe-inline'"],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/** The API's origin, or none when the console has no API configured (a pasted one on this origin only). */
function originOf(apiBase: string): string[] {
  try {
    return [new URL(apiBase).origin];
  } catch {
    return [];
  }
}
