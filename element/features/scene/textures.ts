import { RepeatWrapping, SRGBColorSpace, TextureLoader, type Texture } from 'three';

/**
 * Base colour textures of `map` effects by URL (docs/scene-format.md, Effects): loaded once, set up as GLTFLoader
 * sets up glTF textures (sRGB, glTF UVs, repeat). A texture that fails stays absent (null).
 */
export interface TextureCache {
  /** The loaded texture; null when it failed; undefined while not loaded. */
  get(url: string): Texture | null | undefined;
  /** Loads the URLs not loaded yet; resolves when each has loaded or failed. */
  load(urls: Iterable<string>): Promise<void>;
  dispose(): void;
}

export function createTextureCache(): TextureCache {
  const loader = new TextureLoader();
  const done = new Map<string, Texture | null>();
  const pending = new Map<string, Promise<void>>();
  const loadOne = (url: string) => {
    let promise = pending.get(url);
    if (!promise) {
      promise = loader.loadAsync(url).then(
        (texture) => {
          texture.colorSpace = SRGBColorSpace;
          texture.flipY = false;
          texture.wrapS = texture.wrapT = RepeatWrapping;
          // The AR export re-encodes images as this type (PNG otherwise): photos stay small as JPEG.
          texture.userData.mimeType = /\.jpe?g(\?|#|$)/i.test(url) ? 'image/jpeg' : 'image/png';
          texture.needsUpdate = true;
          done.set(url, texture);
        },
        () => {
          console.warn(`config-share: the texture ${url} could not be loaded; the choice shows without it.`);
          done.set(url, null);
        },
      );
      pending.set(url, promise);
    }
    return promise;
  };
  return {
    get: (url) => done.get(url),
    load: async (urls) => void (await Promise.all([...new Set(urls)].map(loadOne))),
    dispose() {
      for (const texture of done.values()) texture?.dispose();
    },
  };
}
