import { PayframeError } from '../shared/errors';
import type { FieldName } from '../protocol/names';
import { readSibling, type Sibling } from '../protocol';

export interface Siblings {
  /** The number frame's question to the others: their values, or `timeout` naming who did not answer. */
  collect(fields: FieldName[]): Promise<Partial<Record<FieldName, string>>>;
  /** The number frame tells the CVV frame its brand's CVV sizes. */
  sendSizes(sizes: number[]): void;
}

/** How long the number frame waits for its siblings; they are loaded, so they answer in milliseconds. */
const ANSWER_MS = 3000;

/**
 * The frames of one mount talk among themselves on a BroadcastChannel named by the channel id: it
 * reaches only documents of the frame origin (and, in browsers that partition storage, only under
 * the same top-level site), so the merchant page never carries a card value, not even the expiry.
 */
export function siblings(ch: string, field: FieldName, own: { value(): string; sizes(sizes: number[]): void }): Siblings {
  const bc = new BroadcastChannel(`payframe:${ch}`);
  const post = (m: Sibling) => bc.postMessage(m);
  const waiting = new Map<string, (field: FieldName, value: string) => void>();
  let asked = 0;

  bc.onmessage = (event: MessageEvent) => {
    const m = readSibling(event.data, ch);
    if (m?.t === 'collect' && field !== 'number') post({ ch, t: 'value', id: m.id, field, value: own.value() });
    else if (m?.t === 'value') waiting.get(m.id)?.(m.field, m.value);
    else if (m?.t === 'sizes' && field === 'cvv') own.sizes(m.sizes);
  };

  return {
    collect(fields) {
      const id = `${++asked}`;
      const want = new Set(fields);
      const got: Partial<Record<FieldName, string>> = {};
      return new Promise((resolve, reject) => {
        if (want.size === 0) return resolve(got);
        const timer = setTimeout(() => {
          waiting.delete(id);
          const missing = [...want];
          reject(new PayframeError('timeout', `the ${missing.join(', ')} field did not answer`, { fields: missing }));
        }, ANSWER_MS);
        waiting.set(id, (name, value) => {
          if (!want.delete(name)) return;
          got[name] = value;
          if (want.size > 0) return;
          clearTimeout(timer);
          waiting.delete(id);
          resolve(got);
        });
        post({ ch, t: 'collect', id });
      });
    },
    sendSizes: (sizes) => post({ ch, t: 'sizes', sizes }),
  };
}
