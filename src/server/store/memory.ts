/**
 * The notification store's contract, and the default store: which notifications were handled, so that
 * one delivered twice settles once, and which payment an invoice number led to (`payments.settle` asks).
 */
/** What a store says of a notification's id when a delivery of it arrives. */
export type NotificationClaim = 'new' | 'handled' | 'busy';

/**
 * Which notifications were handled, so that one delivered twice settles once. With more than one
 * process, one store for all of them, whose `claim` is atomic (an insert that fails on a duplicate key).
 */
export interface NotificationStore {
  /**
   * Takes `id` for this delivery, at once and for one caller only: `new` (it is yours to handle),
   * `handled` (done before: answered 204), `busy` (being handled elsewhere now: answered 503, and the
   * service sends it again). A claim left by a process that died should lapse after a few minutes.
   */
  claim(id: string): NotificationClaim | Promise<NotificationClaim>;
  /** `onPayment` succeeded: `id` is handled. `invoiceNumber` is the payment's own, as the service has it. */
  finish(id: string, payment: { referenceId: string; invoiceNumber: string | undefined }): void | Promise<void>;
  /** `onPayment` failed: the claim is given back, so that the service's next delivery handles it. */
  release(id: string): void | Promise<void>;
  /** The reference id of the payment a handled notification carried for this invoice number (`payments.settle` asks). */
  referenceOf?(invoiceNumber: string): string | undefined | Promise<string | undefined>;
}

/**
 * The default store: in this process's memory, the newest `limit` notifications handled. A delivery of
 * an id being handled waits for it; a restart forgets them all.
 */
export function memoryNotificationStore(limit = 10_000): NotificationStore {
  const handled = new Map<string, true>();
  const invoices = new Map<string, string>();
  const busy = new Map<string, { done: Promise<void>; end: () => void }>();
  const bound = (map: Map<string, unknown>) => map.size > limit && map.delete(map.keys().next().value!);
  const free = (id: string) => {
    busy.get(id)?.end();
    busy.delete(id);
  };
  return {
    claim: async (id) => {
      // Nothing between the last wait and taking the claim yields: one waiter takes it, the others wait again.
      while (busy.has(id)) await busy.get(id)!.done;
      if (handled.has(id)) return 'handled';
      let end!: () => void;
      busy.set(id, { done: new Promise<void>((resolve) => (end = resolve)), end });
      return 'new';
    },
    finish: (id, { referenceId, invoiceNumber }) => {
      handled.set(id, true);
      bound(handled);
      if (invoiceNumber !== undefined) {
        invoices.delete(invoiceNumber);
        invoices.set(invoiceNumber, referenceId);
        bound(invoices);
      }
      free(id);
    },
    release: free,
    referenceOf: (invoiceNumber) => invoices.get(invoiceNumber),
  };
}
