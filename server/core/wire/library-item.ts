/**
 * A model of an online library as the API answers it. Types only, no Node imports (browser code imports it);
 * platform/libraries/types.ts narrows the provider and category ids.
 */

/** What a licence allows: `allowed` (CC0), `conditions` (attribution and the like), `blocked` (not importable). */
export type LicenseTier = 'allowed' | 'conditions' | 'blocked';

/** A model's licence, as every library's own licence data is mapped to it. */
export interface LicenceInfo {
  /** Human-readable licence text. */
  license: string;
  /** cc0, by, by-sa, by-nd, by-nc, by-nc-sa, by-nc-nd, st, free-st, ed or unknown. */
  licenseId: string;
  licenseUrl: string | null;
  licenseTier: LicenseTier;
  commercialUseAllowed: boolean;
  attributionRequired: boolean;
}

/** One library model in our neutral shape (never a download URL: only the import job gets those). */
export interface LibraryItem<Provider extends string = string, Category extends string = string> extends LicenceInfo {
  provider: Provider;
  providerAssetId: string;
  name: string;
  author: string;
  sourceUrl: string;
  thumbnailUrl: string;
  tags: string[];
  categories: Category[];
  availableFormats: string[];
  polygonCount?: number;
  importable: boolean;
  notImportableReason?: string;
  /** Details only (GET /external-assets/items): what the library says on top of the search fields. */
  description?: string;
  publishedAt?: string | null;
  /** Bytes of the download the import would take, when the library says so. */
  downloadSize?: number;
}
