// Amounts travel as decimal strings ("13.750"); sums are done in minor units. The currency's number of
// decimals comes from Intl (OMR 3, EUR 2, JPY 0), so no table of currencies is kept here.

/** Each currency's, asked of Intl once: a NumberFormat takes a fraction of a millisecond to make. */
const decimals = new Map();

/** @param {string} currency @returns {number} */
export const decimalsOf = (currency) => {
  let known = decimals.get(currency);
  if (known === undefined) {
    known = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    decimals.set(currency, known);
  }
  return known;
};

/** "13.750" OMR is 13750. @param {string} total @param {string} currency */
export const toMinor = (total, currency) => Math.round(Number(total) * 10 ** decimalsOf(currency));

/** 13750 in OMR is "13.750". @param {number} minor @param {string} currency */
export const fromMinor = (minor, currency) => {
  const decimals = decimalsOf(currency);
  return (minor / 10 ** decimals).toFixed(decimals);
};

/** "OMR 13.750", for the sentences the back office shows. @param {number} minor @param {string} currency */
export const money = (minor, currency) => `${currency} ${fromMinor(minor, currency)}`;
