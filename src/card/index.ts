/** The card core: pure brand detection, validation and formatting. Imports nothing outside src/card. */
export type { Brand, BrandId } from './brands';
export { brandsFor, detectBrand } from './detect';
export { luhn } from './luhn';
export { validateNumber, validateCvv, type NumberValidation, type Validation } from './validate';
export { validateExpiry, validateExpiryText, formatExpiry, readExpiryParts, type ExpiryValidation } from './expiry';
export { formatNumber, formatInput, formatEdit, type InputState } from './format';
