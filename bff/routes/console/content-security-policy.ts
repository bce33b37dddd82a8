/**
 * The owner console's Content-Security-Policy. The page holds an owner token, so scripts come
 * only from its own origin and calls go only to its own origin and the API (a link's `#api=` to
 * another host cannot receive the token). Lit's styles are constructable stylesheets (no
 * 'unsafe-inline' for style elements); the panels' templates use style attributes, allowed alone.
 * Images come from the libraries' own thumbnail hosts, the API's signed URLs, and the 3D
 * preview's blob: textures.
 */
export function consoleContentSecurityPolicy(apiBase: string): string {
  const api = originOf(apiBase);
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    // The 3D preview's model-viewer compiles its meshopt decoder (WebAssembly): allowed, not eval.
    'script-src': ["'self'", "'wasm-unsafe-eval'"],
    'connect-src': ["'self'", ...api, 'blob:'],
    'img-src': ['*', 'data:', 'blob:'],
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
