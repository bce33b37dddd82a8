/**
 * ISO 4217 minor units (docs/scene-format.md, Prices; moneyphp/iso-currencies), fixed so the server and every browser
 * agree (Intl differs for HUF, IDR, IQD and others). Funds and metals (XAU, XDR) format with 2 like any other code.
 */

const ZERO = new Set('BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'.split(' '));
const THREE = new Set('BHD IQD JOD KWD LYD OMR TND'.split(' '));
/** Four minor units fall outside the 0, 2 or 3 a project currency may have: such a currency is refused. */
const FOUR = new Set(['CLF', 'UYW']);

const CURRENCY_CODE = /^[A-Z]{3}$/;

/** The minor units of an upper-case ISO 4217 code; null for a code pricing refuses (4 digits, malformed). */
export function currencyDecimals(code: string): 0 | 2 | 3 | null {
  if (!CURRENCY_CODE.test(code) || FOUR.has(code)) return null;
  return ZERO.has(code) ? 0 : THREE.has(code) ? 3 : 2;
}
