/** Card fields on real inputs: the hosted form's frames and `attachForm` share this logic. */
export { type BoundField, bindField } from './bind';
export { ANY_CVV, applyEdit, checkField, checkName, cvvSizes, DEFAULT_BRANDS, type Edit, MAX_NAME, readBrands } from './rules';
export { brandInfo, showsInvalid } from './state';
