import { MAX_ID_LENGTH, MAX_LABEL_LENGTH, MAX_OWNER_NUMBER } from '#core/wire/configurator/owner-values.js';
import type { NumberRule } from './number-rule.js';

/** Owner amounts stay within ±1,000,000,000 major units (docs/scene-format.md, limits). */
export const amountRule = (name: string): NumberRule => ({ name, min: -MAX_OWNER_NUMBER, max: MAX_OWNER_NUMBER });
export { MAX_ID_LENGTH, MAX_LABEL_LENGTH, MAX_OWNER_NUMBER };
