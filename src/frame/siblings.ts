import type { FieldName } from '../protocol/names';
import { siblingPort } from '../protocol/port';
import { jobValues, type Seen, type Values } from './job-values';

export interface Siblings {
  /** The frame may start (start.ts: its parent proven): the number frame asks the others for their values; the others post theirs, now and from now on. */
  start(): void;
  /** A sibling's version of its value, one more when `changed` (then posted to the number frame): the page names it in its next `tokenize`. */
  version(changed: boolean): number;
  /** The number frame's job: the others' values, none older than `seen` (job-values.ts). */
  values(seen: Seen, fields: FieldName[], signal: AbortSignal): Promise<Values>;
  /** The number frame tells the CVV frame its brand's CVV sizes. */
  sendSizes(sizes: number[]): void;
}

/**
 * The frames of one mount talk among themselves on their own port (protocol/port.ts: a BroadcastChannel
 * of the frame origin), so the merchant page never carries a card value, not even the expiry. Each
 * other field posts its value there with its version on every change, and on the number frame's `ask`;
 * the number frame holds them, and uses them only for a job its page asked for. Its own value goes to
 * the gateway alone, whoever asks.
 */
export function siblings(ch: string, field: FieldName, own: { value(): string; sizes(sizes: number[]): void }): Siblings {
  const jobs = field === 'number' ? jobValues(() => post({ t: 'ask' })) : undefined;
  let [n, on] = [0, false];
  const give = () => on && post({ t: 'value', field, value: own.value(), n });
  const post = siblingPort(ch, (m) => {
    if (m.t === 'value') jobs?.put(m.field, m.value, m.n);
    else if (m.t === 'ask' && !jobs) give();
    else if (m.t === 'sizes' && field === 'cvv') own.sizes(m.sizes);
  });

  return {
    start() {
      // A number frame that loads after the others were typed in has their values at once; a field that
      // (re)loads says its value at once, so that the number frame holds nothing of its page before.
      if (!on && jobs) post({ t: 'ask' });
      on = true;
      if (!jobs) give();
    },
    version(changed) {
      if (changed) {
        n++;
        give();
      }
      return n;
    },
    values: (seen, fields, signal) => jobs!.take(seen, fields, signal),
    sendSizes: (sizes) => post({ t: 'sizes', sizes }),
  };
}
