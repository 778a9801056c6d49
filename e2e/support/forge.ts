// The forgeries of the protocol's messages that the forged-messages tests post (Chromium:
// e2e/forged-messages.spec.ts; Firefox and WebKit: e2e/engines/forged.flow.ts). `forge` runs in the
// sender's document, sent as its source: it uses nothing but its argument and the window.

/**
 * Builds the forgeries in the sender's document and posts them to `target` ('*' as target origin):
 * messages for the page or for the frames, every type with a valid shape (unless `malformedOnly`), then
 * malformed ones. Answers how many each target window was sent.
 */
export function forge({
  ch,
  to,
  target,
  malformedOnly = false,
}: {
  ch: string;
  to: string;
  target: string;
  malformedOnly?: boolean;
}): number {
  const huge = 'x'.repeat(2 ** 20);
  const otherCh = ch.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
  const state = { isEmpty: false, isValid: true, isPotentiallyValid: true, isFocused: true };
  const result = {
    nonce: '00000000-0000-4000-8000-000000000000',
    brand: 'visa',
    last4: '4242',
    expireMonth: 1,
    expireYear: 2030,
    expiresAt: '2030-01-01T00:00:00Z',
  };
  const proto = (json: string) => JSON.parse(json.replaceAll('CH', ch));
  const tokenize = { ch, t: 'tokenize', id: 1, token: 'forged-token', timeoutMs: 5000, retries: 0, seen: { expiry: 1e9, cvv: 0, name: 0 } };
  const config = { ch, t: 'config', locale: 'en', fields: ['number'] };
  const anyWay = [
    'hello',
    42,
    null,
    true,
    [ch],
    new Map([
      ['ch', ch],
      ['t', 'hello'],
    ]),
    new Date(),
    { ch },
    { ch: otherCh, t: 'hello' },
    { t: 'hello' },
    { ch: 5, t: 'hello' },
    { ch: huge, t: 'hello' },
    { ch, t: '__proto__' },
    { ch, t: 'constructor' },
    { ch, t: 'toString' },
    { ch, t: huge },
    proto('{"__proto__":{"t":"hello","ch":"CH"}}'),
  ];
  const messages = {
    page: {
      valid: [
        { ch, t: 'ready', label: 'Forged' },
        { ch, t: 'state', event: 'input', state, brand: { id: 'visa', name: 'Visa', code: { name: 'CVV', size: 3 } } },
        { ch, t: 'state', event: 'submit', state },
        { ch, t: 'state', event: 'focus', state },
        { ch, t: 'state', state },
        { ch, t: 'state', event: 'input', state, n: 1e9 },
        { ch, t: 'resize', height: 999 },
        ...[1, 2, 3].map((id) => ({ ch, t: 'result', id, result })),
        { ch, t: 'failure', id: 1, error: { code: 'conflict', message: 'forged' } },
      ],
      malformed: [
        ...anyWay,
        { ch, t: 'ready', label: 42 },
        { ch, t: 'ready', label: huge },
        { ch, t: 'state', state: 'valid' },
        { ch, t: 'state', state: { ...state, isValid: 'true' } },
        { ch, t: 'state', event: 'click', state },
        { ch, t: 'state', event: 'input', state, n: -1 },
        { ch, t: 'state', event: 'input', state, n: '1' },
        { ch, t: 'state', state, brand: { id: {}, name: 'x', code: {} } },
        { ch, t: 'resize', height: '1e9' },
        { ch, t: 'resize', height: -5 },
        { ch, t: 'resize', height: NaN },
        { ch, t: 'result', id: '1', result },
        { ch, t: 'result', id: 1, result: { ...result, nonce: 5 } },
        { ch, t: 'result', id: 1, result: null },
        { ch, t: 'failure', id: 1, error: { code: 5, message: 'x' } },
        { ch, t: 'failure', id: 1, error: { code: 'conflict', message: 'x', fields: ['pin'] } },
        { ch, t: 'failure', id: 1, error: { code: 'conflict', message: huge } },
        proto('{"ch":"CH","t":"state","state":{"__proto__":{"isEmpty":false,"isValid":true,"isPotentiallyValid":true,"isFocused":true}}}'),
        proto(
          '{"ch":"CH","t":"result","id":1,"result":{"__proto__":{"nonce":"n","last4":"4242","expireMonth":1,"expireYear":2030,"expiresAt":"t"}}}',
        ),
      ],
    },
    frames: {
      valid: [
        { ch, t: 'config', locale: 'ar', label: 'Forged', fields: ['number', 'expiry', 'cvv', 'name'], styles: { base: { color: 'red' } } },
        { ch, t: 'focus' },
        { ch, t: 'clear' },
        { ch, t: 'touch' },
        { ch, t: 'placeholder', text: 'forged' },
        tokenize,
        { ch, t: 'cancel', id: 1 },
      ],
      malformed: [
        ...anyWay,
        { ...config, locale: 'fr' },
        { ...config, label: 'x'.repeat(201) },
        { ...config, label: huge },
        { ...config, fields: ['number', 'pin'] },
        { ...config, fields: 'number' },
        { ...config, placeholder: 5 },
        { ...config, scheme: 'x'.repeat(41) },
        { ch, t: 'placeholder', text: 'x'.repeat(201) },
        { ch, t: 'placeholder', text: 5 },
        { ch, t: 'placeholder' },
        ...['a b', 'x\n', '', huge, 5].map((token) => ({ ...tokenize, token })),
        ...[0, -1, 2 ** 31, NaN, '5000'].map((timeoutMs) => ({ ...tokenize, timeoutMs })),
        ...[11, 1.5, -1, '1'].map((retries) => ({ ...tokenize, retries })),
        ...[-1, '1', NaN, null].map((id) => ({ ...tokenize, id })),
        ...[undefined, null, 5, { cvv: -1 }, { cvv: '1' }].map((seen) => ({ ...tokenize, seen })),
        { ch, t: 'cancel', id: 'x' },
        // What the page of an older payframe sent its other frames with each tokenize.
        { ch, t: 'share', id: 1 },
        proto('{"ch":"CH","__proto__":{"t":"clear"}}'),
        proto('{"ch":"CH","t":"tokenize","id":1,"token":"tok","timeoutMs":5000,"retries":0,"seen":{"__proto__":{"cvv":1}}}'),
        proto('{"ch":"CH","t":"tokenize","__proto__":{"id":1,"token":"tok","timeoutMs":5000,"retries":0}}'),
      ],
    },
  }[to as 'page' | 'frames'];
  const list = malformedOnly ? messages.malformed : [...messages.valid, ...messages.malformed];
  const w = window as any;
  const all = (win: Window) => Array.from({ length: win.frames.length }, (_, i) => win.frames[i]!);
  const windows: Record<string, () => Window[]> = {
    parent: () => [parent],
    'parent.frames': () => all(parent),
    popup: () => [w.popup],
    'popup.frames': () => all(w.popup),
    frames: () => all(window),
  };
  for (const win of windows[target]!()) for (const m of list) win.postMessage(m, '*');
  return list.length;
}

/**
 * Runs in the checkout page: what the forgeries could change there, as the page and the person see it
 * (`active`: the focused element too, where reading the frames moves no focus).
 */
export function formView(active: boolean) {
  const w = window as any;
  return {
    state: w.form.getState(),
    events: w.recorded.events.length,
    errors: w.recorded.errors,
    status: document.querySelector('#status')!.textContent,
    frames: [...document.querySelectorAll('.field iframe')].map((f) => [
      (f as HTMLIFrameElement).title,
      (f as HTMLIFrameElement).style.height,
    ]),
    classes: [...document.querySelectorAll('.field')].map((f) => f.className),
    ...(active && { active: document.activeElement?.id ?? document.activeElement?.tagName }),
  };
}
