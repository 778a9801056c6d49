// How a flow names what it clicks: as a person sees it. `find` runs in the browser (it is sent as its
// source): it uses nothing but its argument and the document it runs in.

export type Target =
  /** A form control by its accessible name: its <label>, aria-label or aria-labelledby. */
  | { label: string }
  /** A button or a text box by role and accessible name. */
  | { role: 'button' | 'textbox'; name: string }
  /** The innermost visible element whose whole text is this (a page's <label>, a paragraph). */
  | { text: string }
  /** A CSS selector, for what has no name (a field's container). */
  | { css: string };

export function find(target: Target): Element | null {
  const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
  const visible = (el: Element) => el.getClientRects().length > 0;
  const nameOf = (el: Element): string => {
    const labelledby = el.getAttribute('aria-labelledby');
    if (labelledby)
      return norm(
        labelledby
          .split(/\s+/)
          .map((id) => document.getElementById(id)?.textContent)
          .join(' '),
      );
    const aria = el.getAttribute('aria-label');
    if (aria) return norm(aria);
    const labels = (el as HTMLInputElement).labels;
    if (labels && labels.length > 0) return norm([...labels].map((l) => l.textContent).join(' '));
    return el.matches('button, [role=button]')
      ? norm(el.textContent)
      : norm((el as HTMLInputElement).type === 'submit' ? (el as HTMLInputElement).value : '');
  };
  const all = [...document.querySelectorAll('*')];
  if ('css' in target) return document.querySelector(target.css);
  if ('text' in target) {
    const matching = all.filter((el) => visible(el) && norm(el.textContent) === target.text);
    return matching.find((el) => !matching.some((other) => other !== el && el.contains(other))) ?? null;
  }
  const controls =
    'label' in target
      ? all.filter((el) => el.matches('input, textarea, select, button, [role=textbox]'))
      : all.filter((el) =>
          el.matches(
            target.role === 'button'
              ? 'button, input[type=submit], input[type=button], [role=button]'
              : 'input:not([type]), input[type=text], input[type=email], input[type=tel], textarea, [role=textbox]',
          ),
        );
  const name = 'label' in target ? target.label : target.name;
  return controls.find((el) => nameOf(el) === name) ?? null;
}
