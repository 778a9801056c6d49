import type { FieldName } from '../shared/names';
import { siblingPort } from '../protocol/port';
import { jobValues, type Seen, type Values } from './job-values';

export interface Siblings {
  /** The frame may start (start.ts: its parent proven): the number frame asks the others for their values; the others post theirs from now on. */
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
export function siblings(
  ch: string,
  field: FieldName,
  own: { value(): string; sizes(sizes: number[]): void },
  // Each frame document counts its versions from a random start: the number frame takes a value for the page
  // only from the frame the page heard (job-values.ts), not from the one before it (its container moved),
  // nor from one the page's script planted on the channel.
  from = Math.random() * 1e15,
): Siblings {
  const jobs = field === 'number' ? jobValues(() => post({ t: 'ask' })) : undefined;
  let [n, on] = [from, false];
  const give = () => on && post({ t: 'value', field, value: own.value(), n });
  const post = siblingPort(ch, (m) => {
    if (m.t === 'value') jobs?.put(m.field, m.value, m.n);
    else if (m.t === 'ask' && !jobs) give();
    else if (m.t === 'sizes' && field === 'cvv') own.sizes(m.sizes);
  });

  return {
    start() {
      // A number frame that loads after the others were typed in has their values at once.
      if (!on && jobs) post({ t: 'ask' });
      on = true;
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
