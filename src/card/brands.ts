/**
 * The brand table. Prefix ranges are the public, well-known BIN ranges (the same facts as braintree's
 * credit-card-type), written compactly: a pattern is `p` or `lo-hi` (lo and hi of equal length).
 * Gaps default to every four digits (19-digit cards read 4-4-4-4-3).
 * Overlaps are resolved by specificity, not by holes: a longer pattern beats a shorter one (elo's
 * `401178` beats visa's `4`; verve's `506099-506127` beats maestro's `50`), so broad brands can be
 * written broadly. Brands are listed in the order we show them when nothing else decides.
 */

export type BrandId =
  | 'visa'
  | 'mastercard'
  | 'american-express'
  | 'diners-club'
  | 'discover'
  | 'jcb'
  | 'unionpay'
  | 'maestro'
  | 'mir'
  | 'elo'
  | 'hiper'
  | 'hipercard'
  | 'verve';

export interface Brand {
  id: BrandId;
  name: string;
  /** Digit positions after which a space is shown: [4, 8, 12, 16] gives 4111 1111 1111 1111. */
  gaps: number[];
  lengths: number[];
  code: { name: string; size: number };
  /** Whether the number carries a Luhn check digit (UnionPay numbers may not). */
  luhn: boolean;
  /** The service's `brand_code`. */
  gatewayCode?: string;
}

/** A parsed prefix range: digits of lo and hi, same length. */
export interface Range {
  lo: string;
  hi: string;
}

// id | name | gatewayCode (empty: the id in capitals) | patterns | lengths (`a-b` = every length from a to b) | code name size | gaps | luhn
const TABLE =
  'visa|Visa||4|16 18 19|CVV 3\n' +
  'mastercard|Mastercard||51-55 2221-2229 223-229 23-26 270-271 2720|16|CVC 3\n' +
  'american-express|American Express|AMEX|34 37|15|CID 4|4 10\n' +
  'diners-club|Diners Club|DINERS|300-305 36 38 39|14 16 19|CVV 3|4 10\n' +
  'discover|Discover||6011 644-649 65|16 19|CID 3\n' +
  'jcb|JCB||2131 1800 3528-3589|16-19|CVV 3\n' +
  'unionpay|UnionPay||620 62100-62182 62184-62197 622-626 6270 6272 6276-6277 6282-6289 6291-6292 8100-8171|14-19|CVN 3||0\n' +
  'maestro|Maestro||493698 50 56-59 6|12-19|CVC 3\n' +
  'mir|Mir||2200-2204|16-19|CVP2 3\n' +
  'elo|Elo||401178-401179 431274 438935 451416 457393 457631-457632 504175 506699-506778 509 627780 636297 636368 650031-650033 650035-650051 650405-650439 650485-650538 650541-650598 650700-650718 650720-650727 650901-650978 651652-651679 655000-655019 655021-655058|16|CVE 3\n' +
  'hiper|Hiper||637095 637568 637599 637609 637612 63737423 63743358|16|CVC 3\n' +
  'hipercard|Hipercard||606282|16|CVC 3\n' +
  'verve|Verve||506099-506127 506129 506133-506150 506158-506163 506166 506168 506170 506173 506176-506180 506184 506187-506188 506191 506195 506197 507865-507866 507868-507877 507880-507888 507900 507941|16 18 19|CVV 3';

export interface Entry {
  brand: Brand;
  ranges: Range[];
}

let entries: Entry[] | undefined;

function numbers(spec: string): number[] {
  const out: number[] = [];
  for (const part of spec.split(' ')) {
    const [a = '', b = a] = part.split('-');
    for (let n = Number(a); n <= Number(b); n++) out.push(n);
  }
  return out;
}

/** The parsed table, built on first use so that importing this module does no work. */
export function table(): Entry[] {
  if (entries) return entries;
  entries = TABLE.split('\n').map((line) => {
    const [id = '', name = '', gatewayCode, patterns = '', lengths = '', code = '', gaps, luhn] = line.split('|');
    const [codeName = '', codeSize = '3'] = code.split(' ');
    const brand: Brand = Object.freeze({
      id: id as BrandId,
      name,
      gaps: Object.freeze(numbers(gaps || '4 8 12 16')) as number[],
      lengths: Object.freeze(numbers(lengths)) as number[],
      code: Object.freeze({ name: codeName, size: Number(codeSize) }),
      luhn: luhn !== '0',
      gatewayCode: gatewayCode || id.toUpperCase(),
    });
    const ranges = patterns.split(' ').map((p) => {
      const [lo = '', hi = lo] = p.split('-');
      return { lo, hi };
    });
    return { brand, ranges };
  });
  return entries;
}
