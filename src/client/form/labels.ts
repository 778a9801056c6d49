import { MAX_TEXT } from '../../protocol/is';

/**
 * The text of the page's `<label for=id>` of an element, or of a `<label>` around it, looked up in the
 * element's own tree (a shadow root too). The frames take it as their input's accessible name.
 */
export function labelOf(el: Element): string | undefined {
  const root = el.getRootNode() as Document | ShadowRoot;
  const label = [...root.querySelectorAll('label')].find((l) => el.id !== '' && l.htmlFor === el.id) ?? el.closest('label');
  const text = label?.textContent?.replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT);
  return text || undefined;
}
