/**
 * The trust boundary's one channel: every message between the page and its frames, and among the
 * frames, goes out and comes in here. Out, it carries the mount's channel id and names the other side's
 * origin exactly; in, it reaches a handler only from the other side's origin, from a window we know,
 * on our channel, and in a shape the guards of guards.ts read. Anything else is dropped unseen.
 */
import { readSibling } from './guards';
import type { Out, Sibling } from './messages';

export interface WindowPort<O> {
  /** Posts `m` with the channel to `to`, for the other side's origin alone (a window elsewhere gets nothing). */
  post(to: Window | null | undefined, m: Out<O>): void;
  /** Stops listening. */
  close(): void;
}

/**
 * A port to windows of one origin (the page's frames, or a frame's parent), listening at once. `senders`
 * names each window we take messages from (a message from any other is dropped); `read` is the
 * receiving side's guard; `unreadable` hears of a sender's message on our channel that it does not read.
 */
export function windowPort<I, O, S>(
  ch: string,
  origin: string,
  senders: ReadonlyMap<unknown, S>,
  read: (data: unknown, ch: string) => I | undefined,
  on: (m: I, sender: S) => void,
  unreadable?: (sender: S) => void,
): WindowPort<O> {
  const listener = ({ origin: at, source, data }: MessageEvent) => {
    const sender = senders.get(source);
    if (at !== origin || sender === undefined) return;
    const m = read(data, ch);
    if (m !== undefined) on(m, sender);
    else if ((data as { ch?: unknown } | null)?.ch === ch) unreadable?.(sender);
  };
  addEventListener('message', listener);
  return {
    post: (to, m) => to?.postMessage({ ...m, ch }, origin),
    close: () => removeEventListener('message', listener),
  };
}

/**
 * The frames' own port: a BroadcastChannel named by the channel id, which reaches only documents of the
 * frame origin (and, in browsers that partition storage, only under the same top-level site), so the
 * page never carries a card value. What comes in reaches `on` only on our channel, in a sibling's shape.
 */
export function siblingPort(ch: string, on: (m: Sibling) => void): (m: Out<Sibling>) => void {
  const bc = new BroadcastChannel(`payframe:${ch}`);
  bc.onmessage = ({ data }: MessageEvent) => {
    const m = readSibling(data, ch);
    if (m) on(m);
  };
  return (m) => bc.postMessage({ ...m, ch });
}
