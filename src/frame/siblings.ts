import type { FieldName } from '../protocol/names';
import { siblingPort } from '../protocol/port';
import { jobValues, type Values } from './job-values';

export interface Siblings {
  /** A sibling, on the page's `share` for job `id`: its value may go for that job, when the number frame asks (the number frame: nothing). */
  share(id: number): void;
  /** The number frame's job `id` (the number frame only): asks the others for their values and answers them, or `timeout` naming who did not answer (job-values.ts). */
  values(id: number, fields: FieldName[], signal: AbortSignal): Promise<Values>;
  /** The number frame tells the CVV frame its brand's CVV sizes. */
  sendSizes(sizes: number[]): void;
}

/** How many job ids a sibling remembers, shared by its page or asked by the number frame: the page runs one job at a time. */
export const KEEP = 4;

const remember = (ids: Set<number>, id: number) => {
  ids.add(id);
  if (ids.size > KEEP) ids.delete(ids.values().next().value!);
};

/**
 * The frames of one mount talk among themselves on their own port (protocol/port.ts: a BroadcastChannel
 * of the frame origin), so the merchant page never carries a card value, not even the expiry.
 * A sibling's value goes on it for a job only when both have come, in either order: its own page's
 * `share` for that job (a number frame elsewhere with the channel id gets nothing) and the number
 * frame's `ask`, which it posts once its job has begun. The value is read then: never older than the
 * job, whatever the page sent before it (a script of the page may send a `share` ahead of the job).
 */
export function siblings(ch: string, field: FieldName, own: { value(): string; sizes(sizes: number[]): void }): Siblings {
  // Only the number frame uses values; the others only send theirs, and the number frame never does:
  // its value goes to the gateway alone, whoever asks.
  const jobs = field === 'number' ? jobValues() : undefined;
  const [shared, asked] = [new Set<number>(), new Set<number>()];
  const give = (id: number) => post({ t: 'value', id, field, value: own.value() });
  const post = siblingPort(ch, (m) => {
    if (m.t === 'value') jobs?.put(m.id, m.field, m.value);
    else if (m.t === 'ask' && !jobs) shared.has(m.id) ? give(m.id) : remember(asked, m.id);
    else if (m.t === 'sizes' && field === 'cvv') own.sizes(m.sizes);
  });

  return {
    share(id) {
      if (jobs) return;
      remember(shared, id);
      if (asked.delete(id)) give(id);
    },
    values(id, fields, signal) {
      // Waiting first, then asking: every answer comes after the job began.
      const values = jobs!.take(id, fields, signal);
      if (fields.length > 0) post({ t: 'ask', id });
      return values;
    },
    sendSizes: (sizes) => post({ t: 'sizes', sizes }),
  };
}
