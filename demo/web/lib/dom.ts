// Building DOM with calls, never markup strings: the pages run under Trusted Types, where
// innerHTML is closed.

type Child = Node | string | null | undefined | false;
type Props = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

/** `h('button', { type: 'button', onclick }, 'Capture')`. Attributes are set as attributes; `on*` as listeners. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== undefined && value !== false) element.setAttribute(name, String(value));
  }
  element.append(...children.filter((c): c is Node | string => c !== null && c !== undefined && c !== false));
  return element;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from the page`);
  return element as T;
}

/** Shows a message in a status element: `kind` picks its look (ok, bad, info); empty clears it. */
export function say(element: HTMLElement, text: string, kind: 'ok' | 'bad' | 'info' = 'info'): void {
  element.textContent = text;
  element.className = text ? `status notice ${kind}` : 'status';
}
