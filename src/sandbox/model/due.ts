/**
 * Payments that change on their own: a pending payment expires after 15 minutes, an authorisation is
 * cancelled after seven days. Their instants are kept in a min-heap, so that the sandbox applies each
 * when its time comes (on the clock's move forward, or by a timer) without looking at every payment.
 */

/** A min-heap of `[instant, payment id]`. An entry whose payment changed since is simply found unchanged. */
export class DueIndex {
  private heap: [number, string][] = [];
  /** Called when an added instant is the new soonest one (a timer to move forward). */
  onSooner: () => void = () => {};

  add(at: number, id: string): void {
    const heap = this.heap;
    heap.push([at, id]);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]![0] <= heap[i]![0]) break;
      [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
      i = parent;
    }
    if (i === 0) this.onSooner();
  }

  /** The soonest instant, or undefined when nothing is due ever. */
  next(): number | undefined {
    return this.heap[0]?.[0];
  }

  /** Takes out the ids due at `now` or before, soonest first. */
  take(now: number): string[] {
    const out: string[] = [];
    while (this.heap.length > 0 && this.heap[0]![0] <= now) out.push(this.pop());
    return out;
  }

  private pop(): string {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let least = i;
        if (l < heap.length && heap[l]![0] < heap[least]![0]) least = l;
        if (r < heap.length && heap[r]![0] < heap[least]![0]) least = r;
        if (least === i) break;
        [heap[least], heap[i]] = [heap[i]!, heap[least]!];
        i = least;
      }
    }
    return top[1];
  }
}

/** The longest a Node timer waits (about 24.8 days); a later instant is waited for in steps. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Applies `apply` to each payment id when its instant comes: at once for what is due when `sweep()` runs
 * (the clock moved forward), and by an unref'd timer to the soonest instant, so real time does it too.
 */
export function dueTimer(due: DueIndex, now: () => number, apply: (id: string) => void) {
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const arm = () => {
    clearTimeout(timer);
    const next = due.next();
    timer = closed || next === undefined ? undefined : setTimeout(sweep, Math.min(Math.max(next - now(), 0), MAX_TIMER_MS)).unref();
  };
  const sweep = () => {
    if (closed) return;
    for (const id of due.take(now())) apply(id);
    arm();
  };
  due.onSooner = arm;
  return {
    sweep,
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
