/**
 * A card form's values as the card the nonce request sends, for the frames and `attachForm` alike:
 * each field checked once, by the rules the fields show as the person types, and refused under the
 * form's own field names.
 */
import { detectBrand, validateExpiry } from '../card';
import type { FieldName } from '../protocol/names';
import { PayframeError } from '../shared/errors';
import type { CheckedCard } from '../tokenize/card';
import { checkField } from './rules';

/** `fields`: the form's fields (`name` among them when it has one); `sizes`: the CVV sizes of the number's brand. */
export function formCard(values: Partial<Record<FieldName, string>>, fields: readonly FieldName[], sizes: number[]): CheckedCard {
  const bad = fields.filter((f) => !checkField(f, values[f] ?? '', sizes).isValid);
  if (bad.length > 0) throw new PayframeError('invalid_card', `invalid card details: ${bad.join(', ')}`, { fields: bad });
  const number = values.number!.replace(/\D/g, '');
  const { month, year } = validateExpiry(values.expiry!);
  return {
    body: { number, expire_month: month!, expire_year: year!, cvv2: values.cvv! },
    name: fields.includes('name') ? values.name!.trim() : undefined,
    brand: detectBrand(number)?.id,
  };
}
