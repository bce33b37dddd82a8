import { MAX_THUMBNAIL_BYTES } from '#core/wire/project-thumbnail.js';

/** Twice a project card's picture, for sharp cards on high-density screens. */
const WIDTH = 480;
const HEIGHT = 300;
/** Space around the product, as a share of the picture's shorter side. */
const MARGIN = 0.08;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const loaded = (src: string) =>
  new Promise<HTMLImageElement>((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('The preview could not be read as an image.'));
    image.src = src;
  });

/** The box of the pixels that differ from the corner's (the background); the whole image when none do. */
function productBox(image: HTMLImageElement): Box {
  const { naturalWidth: width, naturalHeight: height } = image;
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return { x: 0, y: 0, width, height };
  context.drawImage(image, 0, 0);
  const pixels = context.getImageData(0, 0, width, height).data;
  const differs = (at: number) => {
    for (let channel = 0; channel < 4; channel++) if (Math.abs(pixels[at + channel] - pixels[channel]) > 8) return true;
    return false;
  };
  let [left, top, right, bottom] = [width, height, -1, -1];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!differs((y * width + x) * 4)) continue;
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
  }
  return right < 0
    ? { x: 0, y: 0, width, height }
    : { x: left, y: top, width: right - left + 1, height: bottom - top + 1 };
}

/**
 * A project card's picture from the live preview's screenshot: the product, centred on white with a margin in the
 * card's shape, as WebP (JPEG where the browser writes no WebP); null when it would exceed the server's limit.
 */
export async function thumbnailFrom(screenshot: string): Promise<string | null> {
  const image = await loaded(screenshot);
  const box = productBox(image);
  const room = Math.min(WIDTH, HEIGHT) * MARGIN * 2;
  const scale = Math.min((WIDTH - room) / box.width, (HEIGHT - room) / box.height);
  const canvas = document.createElement('canvas');
  canvas.width = WIDTH;
  canvas.height = HEIGHT;
  const context = canvas.getContext('2d');
  if (!context) return null;
  context.fillStyle = '#fff';
  context.fillRect(0, 0, WIDTH, HEIGHT);
  const [width, height] = [box.width * scale, box.height * scale];
  context.drawImage(
    image,
    box.x,
    box.y,
    box.width,
    box.height,
    (WIDTH - width) / 2,
    (HEIGHT - height) / 2,
    width,
    height,
  );
  let url = canvas.toDataURL('image/webp', 0.85);
  if (!url.startsWith('data:image/webp')) url = canvas.toDataURL('image/jpeg', 0.85);
  return (url.length - url.indexOf(',') - 1) * 0.75 <= MAX_THUMBNAIL_BYTES ? url : null;
}
