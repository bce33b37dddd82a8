/**
 * Licence rules shared by every library (docs/libraries.md, Licences): each adapter maps its licences to a
 * `LicenceInfo`, and the tier decides what may be imported; anything unknown is `blocked`.
 */
import type { LicenceInfo } from '../../wire/library-item.js';

export type { LicenceInfo };

/** The licence filter values of GET /external-assets/search. */
export const LICENSE_FILTERS = ['cc0', 'by', 'by-sa', 'by-nd', 'by-nc', 'by-nc-sa', 'by-nc-nd'] as const;
export type LicenseFilter = (typeof LICENSE_FILTERS)[number];

const CC = 'https://creativecommons.org/licenses';
const KNOWN: Record<string, Omit<LicenceInfo, 'licenseId'>> = {
  cc0: {
    license: 'CC0 1.0 Public Domain Dedication',
    licenseUrl: 'https://creativecommons.org/publicdomain/zero/1.0/',
    licenseTier: 'allowed',
    commercialUseAllowed: true,
    attributionRequired: false,
  },
  by: {
    license: 'CC Attribution 4.0',
    licenseUrl: `${CC}/by/4.0/`,
    licenseTier: 'conditions',
    commercialUseAllowed: true,
    attributionRequired: true,
  },
  'by-sa': {
    license: 'CC Attribution-ShareAlike 4.0',
    licenseUrl: `${CC}/by-sa/4.0/`,
    licenseTier: 'conditions',
    commercialUseAllowed: true,
    attributionRequired: true,
  },
  'by-nd': {
    license: 'CC Attribution-NoDerivs 4.0',
    licenseUrl: `${CC}/by-nd/4.0/`,
    licenseTier: 'conditions',
    commercialUseAllowed: true,
    attributionRequired: true,
  },
  'by-nc': {
    license: 'CC Attribution-NonCommercial 4.0',
    licenseUrl: `${CC}/by-nc/4.0/`,
    licenseTier: 'blocked',
    commercialUseAllowed: false,
    attributionRequired: true,
  },
  'by-nc-sa': {
    license: 'CC Attribution-NonCommercial-ShareAlike 4.0',
    licenseUrl: `${CC}/by-nc-sa/4.0/`,
    licenseTier: 'blocked',
    commercialUseAllowed: false,
    attributionRequired: true,
  },
  'by-nc-nd': {
    license: 'CC Attribution-NonCommercial-NoDerivs 4.0',
    licenseUrl: `${CC}/by-nc-nd/4.0/`,
    licenseTier: 'blocked',
    commercialUseAllowed: false,
    attributionRequired: true,
  },
  // Store licences permit the buyer's commercial use, but our policy blocks them: false here.
  st: {
    license: 'Standard (store licence)',
    licenseUrl: 'https://sketchfab.com/licenses',
    licenseTier: 'blocked',
    commercialUseAllowed: false,
    attributionRequired: true,
  },
  'free-st': {
    license: 'Free Standard (store licence)',
    licenseUrl: 'https://sketchfab.com/licenses',
    licenseTier: 'blocked',
    commercialUseAllowed: false,
    attributionRequired: true,
  },
  ed: {
    license: 'Editorial',
    licenseUrl: 'https://sketchfab.com/licenses',
    licenseTier: 'blocked',
    commercialUseAllowed: false,
    attributionRequired: true,
  },
};

/** The licence of one of our ids; `label` replaces the text when the library gave its own. */
export function licenceFor(licenseId: string, label?: string | null): LicenceInfo {
  const known = KNOWN[licenseId];
  if (!known) return unknownLicence(label);
  return { ...known, licenseId, license: label?.trim() || known.license };
}

/** A licence we cannot read: blocked (docs/libraries.md, Licences). */
export function unknownLicence(label?: string | null): LicenceInfo {
  return {
    license: label?.trim() || 'Unknown licence',
    licenseId: 'unknown',
    licenseUrl: null,
    licenseTier: 'blocked',
    commercialUseAllowed: false,
    attributionRequired: true,
  };
}

/** Why a blocked licence cannot be imported, for `notImportableReason` and the 403. */
export function blockedReason(info: LicenceInfo): string {
  if (info.licenseId.startsWith('by-nc')) return 'The licence does not allow commercial use (NonCommercial).';
  if (info.licenseId === 'ed') return 'Editorial licences do not allow use in products.';
  if (info.licenseId === 'st' || info.licenseId === 'free-st') return 'Store licences cannot be imported.';
  return 'The licence is unknown, so the model cannot be imported.';
}

/** The ready-made credit line for a model: reproduced wherever a CC BY or BY-SA model is published. */
export function attributionLine(
  model: { name: string; author: string; sourceUrl: string },
  info: LicenceInfo,
  providerCredit: string,
): string {
  const licence = info.licenseUrl ? `${info.license} (${info.licenseUrl})` : info.license;
  return `"${model.name}" by ${model.author}, ${licence}, ${model.sourceUrl}. ${providerCredit}`;
}
