/** Card fields on real inputs: the hosted form's frames and `attachForm` share this logic. */
export { type BoundField, bindField, type FieldEvent } from './bind';
export { ANY_CVV, applyEdit, checkField, cvvSizes, type Edit, foldDigits } from './rules';
export { type BrandInfo, brandInfo, type FieldName, type FieldState, formFields, showsInvalid } from './state';
