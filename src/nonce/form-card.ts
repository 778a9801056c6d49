/**
 * A card form's values as the card the nonce request sends, for the frames and `attachForm` alike:
 * each field checked once, by the rules the fields show as the person types (fields/rules.ts, whose
 * name rule `checkCard` shares), and refused under the form's own field names.
 */
import { detectBrand, validateExpiryText } from '../card';
import type { BrandId } from '../card/brands';
import { checkField } from '../fields/rules';
import type { FieldName, FieldReason } from '../shared/names';
import { PayframeError } from '../shared/errors';
import type { CheckedCard } from './card';

/**
 * `fields`: the form's fields (`name` among them when it has one); `sizes`: the CVV sizes of the
 * number's brand; `brands`: the brands the merchant takes. A refusal names each field and its reason.
 */
export function formCard(
  values: Partial<Record<FieldName, string>>,
  fields: readonly FieldName[],
  sizes: number[],
  brands?: readonly BrandId[],
): CheckedCard {
  const reasons: Partial<Record<FieldName, FieldReason>> = {};
  for (const f of fields) {
    const { reason } = checkField(f, values[f] ?? '', sizes, brands);
    if (reason) reasons[f] = reason;
  }
  const bad = Object.keys(reasons) as FieldName[];
  if (bad.length > 0) throw new PayframeError('invalid_card', `invalid card details: ${bad.join(', ')}`, { fields: bad, reasons });
  const number = values.number!.replace(/\D/g, '');
  const { month, year } = validateExpiryText(values.expiry!);
  return {
    body: { number, expire_month: month!, expire_year: year!, cvv2: values.cvv! },
    name: fields.includes('name') ? values.name!.trim() : undefined,
    brand: detectBrand(number)?.id,
  };
}
