import type { ConfiguratorStrings } from '../configurator/strings.js';
import { FORM_FIELD_MESSAGES } from '#core/wire/form-field-messages.js';

/**
 * Every text the element shows or announces, in English. A page replaces any of them through the
 * `strings` property (for translation); `{name}`-style placeholders are filled by {@link format}.
 */
export const DEFAULT_STRINGS = {
  loading: 'Loading the 3D configurator…',
  ready: '{name} is ready.',
  viewerLabel: '3D view of {name}. Drag to rotate, scroll to zoom.',
  modelProgress: 'Loading 3D models',
  modelsMissing: 'Some parts of this scene could not be shown.',
  viewerUnavailable: 'The 3D view cannot be shown on this device.',
  viewInAr: 'View in AR',
  preparingAr: 'Preparing AR…',
  passwordPrompt: 'This configurator is protected by a password.',
  passwordLabel: 'Password',
  passwordSubmit: 'Open',
  passwordChecking: 'Checking…',
  passwordInvalid: 'That password is not correct. Please try again.',
  unavailable: 'This configurator is not available at the moment.',
  notFound: 'This configurator could not be found. The link may have changed or been turned off.',
  error: 'The configurator could not be loaded. Check your connection and try again.',
  rateLimited: 'Too many requests. Please wait a moment and try again.',
  retry: 'Try again',
  optionsLegend: 'Options',
  formLegend: 'Your details',
  ...FORM_FIELD_MESSAGES,
  submit: 'Send request',
  submitting: 'Sending…',
  submitted: 'Thank you! Your request has been sent. Reference: {requestId}',
  submitFailed: 'Your request could not be sent. Please try again.',
  submitInvalid: 'Please check the highlighted fields.',
  previewNote: 'Preview: requests are not sent',
};

/** The loader's own texts: what the element shows before and without the configurator. */
export type LoaderStrings = typeof DEFAULT_STRINGS;

/** Every text key of the element; a page may pass any subset through the `strings` property. */
export type ConfigShareStrings = LoaderStrings & ConfiguratorStrings;

/** Fills `{key}` placeholders; unknown keys stay as written so a typo in a translation shows. */
export function format(text: string, values: Record<string, string | number> = {}): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}
