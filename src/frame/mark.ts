/**
 * The brand's mark beside the card number: a small card drawn as SVG with DOM calls (the frame's CSP
 * allows no style in markup and no request; presentation attributes are no style), in the brand's
 * colour with its name or initials: payframe's own drawing, none of a brand's artwork. An unknown
 * brand shows a neutral card. The picture is decoration; the brand's name is said by the input's
 * description, a polite live text, so that a screen reader hears it when it changes.
 */
import type { Brand, BrandId } from '../card';

/** Each brand's mark: its colour (`#rgb`) and the word on it. */
const MARKS: Record<BrandId, string> = {
  visa: '127VISA',
  mastercard: 'e21MC',
  'american-express': '06cAMEX',
  'diners-club': '049DC',
  discover: 'e52DISC',
  jcb: '149JCB',
  unionpay: 'd12UP',
  maestro: '07bMAES',
  mir: '175MIR',
  elo: '000ELO',
  hiper: 'e62HIPER',
  hipercard: 'b12HIPER',
  verve: '046VERVE',
};
const GREY = '#6e7781';

export interface Mark {
  /** Shows the brand's mark and says its name, or the neutral card for an unknown brand. */
  show(brand: Brand | undefined): void;
  /** The merchant's `brandMark`: off, neither the mark nor its name. */
  set(on: boolean): void;
}

export function createMark(input: HTMLInputElement): Mark {
  const svg = (name: string, attributes: Record<string, string | number>) => {
    const el = document.createElementNS('http://www.w3.org/2000/svg', name);
    for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, String(value));
    return el;
  };
  const picture = svg('svg', { width: 32, height: 20, viewBox: '0 0 32 20', 'aria-hidden': 'true' });
  const card = svg('rect', { x: 0.5, y: 0.5, width: 31, height: 19, rx: 3 });
  const stripe = svg('rect', { x: 0.5, y: 5, width: 31, height: 3, fill: GREY });
  const word = svg('text', { x: 16, y: 13, 'text-anchor': 'middle' });
  picture.append(card, stripe, word);
  const said = document.createElement('span');
  said.id = 'brand';
  said.className = 'hidden';
  said.setAttribute('aria-live', 'polite');
  // Read after the field's name and value, before its error.
  input.setAttribute('aria-describedby', 'brand error');
  /** The brand shown: drawn again, and its name said again, only when it changes. */
  let shown: BrandId | undefined | null = null;
  const mark: Mark = {
    show(brand) {
      if (brand?.id === shown) return;
      shown = brand?.id;
      const mark = brand && MARKS[brand.id];
      card.setAttribute('fill', mark ? `#${mark.slice(0, 3)}` : 'none');
      card.setAttribute('stroke', mark ? 'none' : GREY);
      stripe.setAttribute('display', mark ? 'none' : 'inline');
      word.textContent = mark?.slice(3) ?? '';
      said.textContent = brand?.name ?? '';
    },
    set(on) {
      // Once: a live region moved again (at each config) could be read out again.
      if (on) picture.isConnected || input.after(picture, said);
      else {
        picture.remove();
        said.remove();
      }
    },
  };
  mark.show(undefined);
  return mark;
}
