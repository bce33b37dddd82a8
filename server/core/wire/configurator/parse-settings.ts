import { currencyDecimals } from './currency-decimals.js';
import { DEFAULT_SETTINGS } from './default-settings.js';
import {
  isRecord,
  join,
  readBoolean,
  readColor,
  readEnum,
  readHttpsUrl,
  readLabel,
  readNumber,
  readText,
  MAX_ID_LENGTH,
  type Json,
} from './owner-values.js';
import type { SceneWarnings } from './scene-warnings.js';
import type { CartSettings, PricingSettings, SceneSettings } from './types.js';

/**
 * The projectSettings keys the element honours (docs/scene-format.md, Project settings); a bad value is its default.
 */
const PATH = 'sceneData.projectSettings';

function group(settings: Json, key: string, warnings: SceneWarnings): Json {
  const value = settings[key];
  if (value === undefined || value === null) return {};
  if (isRecord(value)) return value;
  warnings.warn(join(PATH, key), 'invalid_type', `${key} must be an object; its defaults apply.`);
  return {};
}

function readLocale(value: unknown, path: string, warnings: SceneWarnings): string | null {
  if (value === undefined || value === null) return null;
  try {
    if (typeof value === 'string' && value.length <= 64) return Intl.getCanonicalLocales(value)[0] ?? null;
  } catch {
    // A malformed tag (`en_US`) is reported below.
  }
  warnings.warn(path, 'invalid_value', 'A locale is a BCP 47 tag such as de-DE.');
  return null;
}

function readCurrency(pricing: Json, settings: Json, warnings: SceneWarnings) {
  const inPricing = pricing.currency !== undefined && pricing.currency !== null;
  const raw = inPricing ? pricing.currency : settings.currency;
  const path = inPricing ? join(join(PATH, 'pricing'), 'currency') : join(PATH, 'currency');
  const none = { currency: DEFAULT_SETTINGS.pricing.currency, decimals: DEFAULT_SETTINGS.pricing.decimals };
  if (raw === undefined || raw === null || raw === '') return none;
  const code = typeof raw === 'string' ? raw.trim().toUpperCase() : '';
  const decimals = currencyDecimals(code);
  if (decimals === null) {
    warnings.warn(
      path,
      'invalid_value',
      'A currency is an ISO 4217 code with 0, 2 or 3 decimals; prices show plain numbers.',
    );
    return none;
  }
  return { currency: code, decimals };
}

function readTax(value: unknown, path: string, warnings: SceneWarnings): PricingSettings['tax'] {
  if (value === undefined || value === null) return null;
  if (!isRecord(value)) {
    warnings.warn(path, 'invalid_type', 'tax is { rate, included?, label? }.');
    return null;
  }
  if (value.rate === undefined) warnings.warn(join(path, 'rate'), 'missing_field', 'A tax needs a rate from 0 to 1.');
  const rate = readNumber(value.rate, join(path, 'rate'), warnings, 0, 1);
  if (rate === undefined) return null;
  return {
    rate,
    included: readBoolean(value.included, join(path, 'included'), warnings) ?? true,
    label: readLabel(value.label, 'Tax', join(path, 'label'), warnings),
  };
}

function readPricing(settings: Json, warnings: SceneWarnings): PricingSettings {
  const pricing = group(settings, 'pricing', warnings);
  const at = (key: string) => join(join(PATH, 'pricing'), key);
  const showPrices =
    readBoolean(pricing.showPrices, at('showPrices'), warnings) ??
    readBoolean(settings.showPrices, join(PATH, 'showPrices'), warnings) ??
    DEFAULT_SETTINGS.pricing.showPrices;
  return {
    ...readCurrency(pricing, settings, warnings),
    locale: readLocale(pricing.locale, at('locale'), warnings),
    showPrices,
    showDeltas: readBoolean(pricing.showDeltas, at('showDeltas'), warnings) ?? DEFAULT_SETTINGS.pricing.showDeltas,
    tax: readTax(pricing.tax, at('tax'), warnings),
    rounding:
      readEnum(pricing.rounding, ['half-up', 'half-even'] as const, at('rounding'), warnings) ??
      DEFAULT_SETTINGS.pricing.rounding,
  };
}

/** A separator between SKU parts: short, so a SKU stays readable. */
export const MAX_SKU_SEPARATOR_LENGTH = 8;
const MAX_ACTION_LENGTH = 2048;

/** Where the element posts a cart line: an absolute https: URL, or a path on the merchant page's origin. */
function readCartAction(value: unknown, path: string, warnings: SceneWarnings): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'string' && value.length <= MAX_ACTION_LENGTH && /^\/(?![/\\])/.test(value)) return value;
  return readHttpsUrl(value, path, warnings) ?? null;
}

function readCart(settings: Json, warnings: SceneWarnings): CartSettings {
  const cart = group(settings, 'cart', warnings);
  const at = (key: string) => join(join(PATH, 'cart'), key);
  const defaults = DEFAULT_SETTINGS.cart;
  return {
    enabled: readBoolean(cart.enabled, at('enabled'), warnings) ?? defaults.enabled,
    label: readLabel(cart.label, defaults.label, at('label'), warnings),
    skuBase: readText(cart.skuBase, at('skuBase'), warnings, MAX_ID_LENGTH) ?? defaults.skuBase,
    skuSeparator:
      readText(cart.skuSeparator, at('skuSeparator'), warnings, MAX_SKU_SEPARATOR_LENGTH) ?? defaults.skuSeparator,
    quantity: readBoolean(cart.quantity, at('quantity'), warnings) ?? defaults.quantity,
    action: readCartAction(cart.action, at('action'), warnings),
  };
}

function readBackground(value: unknown, path: string, warnings: SceneWarnings) {
  return value === 'transparent'
    ? 'transparent'
    : (readColor(value, path, warnings) ?? DEFAULT_SETTINGS.display.background);
}

/** Reads projectSettings (docs/scene-format.md, Project settings) with every default in place. */
export function parseSettings(value: unknown, warnings: SceneWarnings): SceneSettings {
  let settings: Json = {};
  if (isRecord(value)) settings = value;
  else if (value !== undefined && value !== null)
    warnings.warn(PATH, 'invalid_type', 'projectSettings must be an object.');

  const branding = group(settings, 'branding', warnings);
  const lighting = group(settings, 'lighting', warnings);
  const display = group(settings, 'display', warnings);
  const camera = group(settings, 'camera', warnings);
  const ar = group(settings, 'ar', warnings);
  const notifications = group(settings, 'notifications', warnings);
  const at = (name: string, key: string) => join(join(PATH, name), key);
  const number = (source: Json, name: string, key: string, min: number, max: number) =>
    readNumber(source[key], at(name, key), warnings, min, max);
  const flag = (source: Json, name: string, key: string) => readBoolean(source[key], at(name, key), warnings);

  const minDistance =
    number(camera, 'camera', 'minDistance', 0, Number.MAX_VALUE) ?? DEFAULT_SETTINGS.camera.minDistance;
  let maxDistance = number(camera, 'camera', 'maxDistance', 0, Number.MAX_VALUE) ?? DEFAULT_SETTINGS.camera.maxDistance;
  if (minDistance !== null && maxDistance !== null && maxDistance < minDistance) {
    warnings.warn(at('camera', 'maxDistance'), 'invalid_value', 'maxDistance is below minDistance; none is used.');
    maxDistance = null;
  }
  const minPolarAngle = number(camera, 'camera', 'minPolarAngle', 0, 180) ?? DEFAULT_SETTINGS.camera.minPolarAngle;
  let maxPolarAngle = number(camera, 'camera', 'maxPolarAngle', 0, 180) ?? DEFAULT_SETTINGS.camera.maxPolarAngle;
  if (maxPolarAngle < minPolarAngle) {
    warnings.warn(at('camera', 'maxPolarAngle'), 'invalid_value', 'maxPolarAngle is below minPolarAngle; 180 is used.');
    maxPolarAngle = DEFAULT_SETTINGS.camera.maxPolarAngle;
  }
  const shadows =
    lighting.shadows === 'auto' ? 'auto' : (flag(lighting, 'lighting', 'shadows') ?? DEFAULT_SETTINGS.lighting.shadows);

  return {
    pricing: readPricing(settings, warnings),
    branding: {
      primaryColor:
        readColor(settings.brandColor, join(PATH, 'brandColor'), warnings) ??
        readColor(branding.primaryColor, at('branding', 'primaryColor'), warnings) ??
        DEFAULT_SETTINGS.branding.primaryColor,
      logoUrl: readHttpsUrl(branding.logoUrl, at('branding', 'logoUrl'), warnings) ?? DEFAULT_SETTINGS.branding.logoUrl,
      companyName: readText(branding.companyName, at('branding', 'companyName'), warnings) ?? null,
    },
    lighting: {
      environment:
        readEnum(lighting.environment, ['room', 'none'] as const, at('lighting', 'environment'), warnings) ??
        DEFAULT_SETTINGS.lighting.environment,
      environmentIntensity:
        number(lighting, 'lighting', 'environmentIntensity', 0, 5) ?? DEFAULT_SETTINGS.lighting.environmentIntensity,
      exposure: number(lighting, 'lighting', 'exposure', 0.1, 4) ?? DEFAULT_SETTINGS.lighting.exposure,
      keyLight: number(lighting, 'lighting', 'keyLight', 0, 10) ?? DEFAULT_SETTINGS.lighting.keyLight,
      shadows,
      shadowOpacity: number(lighting, 'lighting', 'shadowOpacity', 0, 1) ?? DEFAULT_SETTINGS.lighting.shadowOpacity,
    },
    display: {
      background: readBackground(display.background, at('display', 'background'), warnings),
      autoRotate: flag(display, 'display', 'autoRotate') ?? DEFAULT_SETTINGS.display.autoRotate,
      showOptions: flag(display, 'display', 'showOptions') ?? DEFAULT_SETTINGS.display.showOptions,
      showForm: flag(display, 'display', 'showForm') ?? DEFAULT_SETTINGS.display.showForm,
    },
    camera: {
      fov: number(camera, 'camera', 'fov', 10, 100) ?? DEFAULT_SETTINGS.camera.fov,
      minDistance,
      maxDistance,
      minPolarAngle,
      maxPolarAngle,
      enablePan: flag(camera, 'camera', 'enablePan') ?? DEFAULT_SETTINGS.camera.enablePan,
      enableZoom: flag(camera, 'camera', 'enableZoom') ?? DEFAULT_SETTINGS.camera.enableZoom,
      fit: flag(camera, 'camera', 'fit') ?? DEFAULT_SETTINGS.camera.fit,
    },
    ar: {
      enabled: flag(ar, 'ar', 'enabled') ?? DEFAULT_SETTINGS.ar.enabled,
      placement:
        readEnum(ar.placement, ['floor', 'wall'] as const, at('ar', 'placement'), warnings) ??
        DEFAULT_SETTINGS.ar.placement,
      scale: readEnum(ar.scale, ['auto', 'fixed'] as const, at('ar', 'scale'), warnings) ?? DEFAULT_SETTINGS.ar.scale,
    },
    cart: readCart(settings, warnings),
    notifications: {
      customerCopy: flag(notifications, 'notifications', 'customerCopy') ?? DEFAULT_SETTINGS.notifications.customerCopy,
    },
  };
}
