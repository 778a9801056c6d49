/**
 * The frame's look: a base stylesheet and the merchant's styles, applied as constructed stylesheets
 * through the CSSOM (the frame's CSP has `style-src 'none'`), and web fonts through the FontFace API.
 * Everything the page sends is data checked here; anything outside the allowlist is dropped by name.
 */
import type { FontSource, StyleState } from '../protocol/messages';
import { isWebUrl } from '../shared/url';
import { urlOf } from '../shared/url-of';

/** The CSS properties a merchant may set, in every state. Nothing here can load a resource. */
export const ALLOWED = new Set(
  (
    'color background-color caret-color opacity text-align text-shadow text-transform letter-spacing line-height ' +
    'font font-family font-size font-size-adjust font-stretch font-style font-variant font-weight ' +
    'padding padding-top padding-right padding-bottom padding-left padding-inline padding-block ' +
    'outline outline-color outline-offset outline-style outline-width box-shadow transition ' +
    '-webkit-font-smoothing -moz-osx-font-smoothing -webkit-text-fill-color'
  ).split(' '),
);

/** A number given for any other property is in pixels, as in inline styles of UI libraries. */
const UNITLESS = new Set(['opacity', 'font-weight', 'line-height', 'font-size-adjust']);

/** Values that could load a resource, run script or break out of a declaration. */
const UNSAFE = /(?:url|image-set|image|cross-fade|element|attr|src|expression)\s*\(|javascript:|[;@{}<>\\]|\/\*/i;

const SELECTORS: Record<StyleState, string[]> = {
  base: ['input'],
  focus: ['input:focus'],
  valid: ['input.is-valid'],
  invalid: ['input.is-invalid'],
  placeholder: ['input::placeholder'],
  autofill: ['input:autofill', 'input:-webkit-autofill'],
  disabled: ['input:disabled'],
};

// The brand's mark sits beside the input, at its end (on the left right to left), whatever padding the
// merchant gives the input. `body:not([hidden])`: a hidden body (a frame not proven yet) stays hidden.
const BASE = `html,body{margin:0;padding:0;background:transparent}
body:not([hidden]){display:flex;align-items:center}
input{display:block;box-sizing:border-box;flex:1;min-width:0;width:100%;margin:0;border:0;padding:.625rem .75rem;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:transparent;outline:0}
input:focus-visible{outline:2px solid #0b5fff;outline-offset:-2px}
input::placeholder{color:#6e7781;opacity:1}
input.is-invalid{color:#b3261e}
input:disabled{color:#6e7781;cursor:default}
svg{flex:none;margin-inline-end:.75rem}
text{font:700 8px system-ui,sans-serif;fill:#fff}
:disabled+svg{opacity:.5}
[dir=rtl] input[dir=ltr]{text-align:right}
.hidden{position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}`;

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * A stylesheet of the merchant's `styles`, built declaration by declaration with `setProperty`, so no
 * value can add a rule. Answers the sheet and what was dropped (`state.property`).
 */
export function merchantSheet(styles: unknown, scheme: string | undefined): { sheet: CSSStyleSheet; dropped: string[] } {
  const sheet = new CSSStyleSheet();
  const dropped: string[] = [];
  if (scheme && /^(normal|light|dark|light dark|dark light|only light|only dark)$/.test(scheme)) {
    sheet.insertRule(`:root{color-scheme:${scheme}}`, sheet.cssRules.length);
  }
  const given = typeof styles === 'object' && styles !== null ? (styles as Record<string, unknown>) : {};
  for (const [state, declarations] of Object.entries(given)) {
    const selectors = Object.hasOwn(SELECTORS, state) ? SELECTORS[state as StyleState] : undefined;
    if (!selectors || typeof declarations !== 'object' || declarations === null) {
      dropped.push(state);
      continue;
    }
    for (const selector of selectors) {
      let rule: CSSStyleRule;
      try {
        rule = sheet.cssRules[sheet.insertRule(`${selector}{}`, sheet.cssRules.length)] as CSSStyleRule;
      } catch {
        continue; // a selector this browser does not know (`:autofill` before Chrome 110)
      }
      for (const [key, raw] of Object.entries(declarations)) {
        const property = kebab(key);
        const value = typeof raw === 'number' ? `${raw}${UNITLESS.has(property) ? '' : 'px'}` : raw;
        const ok = ALLOWED.has(property) && typeof value === 'string' && value.length <= 200 && !UNSAFE.test(value);
        if (ok) rule.style.setProperty(property, value);
        if ((!ok || !rule.style.getPropertyValue(property)) && selector === selectors[0]) dropped.push(`${state}.${key}`);
      }
    }
  }
  return { sheet, dropped };
}

export function baseSheet(): CSSStyleSheet | undefined {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(BASE);
    return sheet;
  } catch {
    return undefined; // no constructable stylesheets in this browser
  }
}

/** Adds the merchant's fonts to the frame's document; answers the ones refused (`fonts.<family>`). */
export function loadFonts(fonts: unknown, set: FontFaceSet): string[] {
  const dropped: string[] = [];
  for (const font of Array.isArray(fonts) ? fonts.slice(0, 8) : []) {
    const { family, src, weight, style } = (font ?? {}) as Partial<FontSource>;
    const url = urlOf(String(src));
    const safe =
      typeof family === 'string' && /^[\w -]{1,64}$/.test(family) && url !== undefined && url.pathname.endsWith('.woff2') && isWebUrl(url);
    if (!safe) {
      dropped.push(`fonts.${typeof family === 'string' ? family.slice(0, 64) : '?'}`);
      continue;
    }
    try {
      const face = new FontFace(family, `url("${url!.href}") format("woff2")`, {
        ...(weight === undefined ? {} : { weight: String(weight) }),
        ...(style === undefined ? {} : { style: String(style) }),
        display: 'swap',
      });
      set.add(face);
      face.load().catch(() => undefined); // a font that fails to load leaves the system font
    } catch {
      dropped.push(`fonts.${family}`);
    }
  }
  return dropped;
}
