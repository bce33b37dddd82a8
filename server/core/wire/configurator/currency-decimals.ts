/**
 * ISO 4217 minor units (12.5), a fixed table so the server and every browser agree (Intl's own
 * defaults differ for HUF, IDR, IQD and others). Source: the ISO list as moneyphp/iso-currencies
 * generates it; funds and metals (XAU, XDR) have no minor unit and format with 2 like any other code.
 */

const ZERO = new Set('BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'.split(' '));
const THREE = new Set('BHD IQD JOD KWD LYD OMR TND'.split(' '));
/** Four minor units fall outside 12.5's 0, 2 or 3: such a currency is refused. */
const FOUR = new Set(['CLF', 'UYW']);

const CURRENCY_CODE = /^[A-Z]{3}$/;

/** The minor units of an upper-case ISO 4217 code; null for a code 12.5 cannot price (4 digits, malformed). */
export function currencyDecimals(code: string): 0 | 2 | 3 | null {
  if (!CURRENCY_CODE.test(code) || FOUR.has(code)) return null;
  return ZERO.has(code) ? 0 : THREE.has(code) ? 3 : 2;
}
