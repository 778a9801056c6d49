import type { FieldName } from '../protocol/names';
import { readSibling, type Sibling } from '../protocol';
import { jobValues, type Values } from './job-values';

export interface Siblings {
  /** A sibling, on the page's `share` for job `id`: posts its value as it is now, on the channel alone (the number frame: nothing). */
  share(id: number): void;
  /** The number frame's job `id` (the number frame only): the others' values shared for it, or `timeout` naming who did not answer (job-values.ts). */
  values(id: number, fields: FieldName[], signal: AbortSignal): Promise<Values>;
  /** The number frame tells the CVV frame its brand's CVV sizes. */
  sendSizes(sizes: number[]): void;
}

/**
 * The frames of one mount talk among themselves on a BroadcastChannel named by the channel id: it
 * reaches only documents of the frame origin (and, in browsers that partition storage, only under
 * the same top-level site), so the merchant page never carries a card value, not even the expiry.
 * A value goes on it only when the page asks (`share`, with each tokenize), read at that moment.
 */
export function siblings(ch: string, field: FieldName, own: { value(): string; sizes(sizes: number[]): void }): Siblings {
  const bc = new BroadcastChannel(`payframe:${ch}`);
  const post = (m: Sibling) => bc.postMessage(m);
  // Only the number frame uses values; the others only send theirs.
  const jobs = field === 'number' ? jobValues() : undefined;

  bc.onmessage = (event: MessageEvent) => {
    const m = readSibling(event.data, ch);
    if (m?.t === 'value') jobs?.put(m.id, m.field, m.value);
    else if (m?.t === 'sizes' && field === 'cvv') own.sizes(m.sizes);
  };

  return {
    // The number frame never shares: its value goes to the gateway alone, whoever asks.
    share: (id) => void (field !== 'number' && post({ ch, t: 'value', id, field, value: own.value() })),
    values: (id, fields, signal) => jobs!.take(id, fields, signal),
    sendSizes: (sizes) => post({ ch, t: 'sizes', sizes }),
  };
}
