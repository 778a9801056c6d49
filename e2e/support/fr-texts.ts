// Every text of the frames in French: a locale payframe does not ship, given whole by a merchant
// (test/protocol/texts.test.ts, e2e/merchant-texts.spec.ts).
import type { FieldTexts } from '../../src/protocol/texts';

export const FR: FieldTexts = {
  dir: 'ltr',
  numberLabel: 'Numéro de carte',
  expiryLabel: "Date d'expiration",
  cvvLabel: 'Cryptogramme',
  nameLabel: 'Nom sur la carte',
  expiryPlaceholder: 'MM / AA',
  numberInvalid: 'Saisissez un numéro de carte valide.',
  expiryInvalid: "Saisissez une date d'expiration valide.",
  cvvInvalid: 'Saisissez le cryptogramme visuel.',
  nameInvalid: 'Saisissez le nom figurant sur la carte.',
  numberEmpty: 'Saisissez le numéro de carte.',
  numberIncomplete: 'Le numéro de carte est incomplet.',
  numberUnsupportedBrand: "Ce type de carte n'est pas accepté ici.",
  expiryEmpty: "Saisissez la date d'expiration, mois et année.",
  expiryIncomplete: "La date d'expiration est incomplète.",
  expiryExpired: 'La carte a expiré.',
  cvvEmpty: 'Saisissez le cryptogramme de la carte.',
  cvvIncomplete: 'Le cryptogramme est incomplet.',
  nameEmpty: 'Saisissez le nom figurant sur la carte.',
};
