/**
 * `usePendingPayment`: `handlePending` in a React component. `finish(pending)` shows the OTP form in the
 * element given `ref` (or follows the redirect) and answers the outcome, which is also the hook's state.
 */
import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { handlePending, type HandlePendingOptions, type PayframeError, type PendingOutcome, type PendingPayment } from '../index';
import { useLatest } from './latest';

/**
 * `handlePending`'s options, read when `finish` is called; the container is `ref`'s element, the signal
 * the hook's own. The client may be missing until the page has one (`finish` then rejects `invalid_config`).
 */
export interface PendingPaymentOptions extends Omit<HandlePendingOptions, 'client' | 'container' | 'signal'> {
  client: HandlePendingOptions['client'] | null | undefined;
}

export interface PendingPaymentState {
  /** The payment being finished (its OTP form is shown), until it has an outcome or an error. */
  pending?: PendingPayment;
  outcome?: PendingOutcome;
  error?: PayframeError;
}

export interface PendingPaymentValue extends PendingPaymentState {
  /** Put it on the element the OTP form goes in: one React renders no children into. */
  ref: (element: Element | null) => void;
  /**
   * Finishes `pending` as `handlePending` does. `pending` is set (and rendered) before the form is shown, so the
   * element may be rendered only while there is one. Another call, `reset()` or unmounting ends the one running
   * (it rejects `aborted`); its rejection is the state's `error` too, so a call nobody awaits is never unhandled.
   */
  finish(pending: PendingPayment): Promise<PendingOutcome>;
  /** Ends the call running, removes the OTP form and clears the state. */
  reset(): void;
}

export function usePendingPayment(options: PendingPaymentOptions): PendingPaymentValue {
  const latest = useLatest(options);
  const [state, setState] = useState<PendingPaymentState>({});
  const [own] = useState(() => {
    let element: Element | null = null;
    let running: AbortController | undefined;
    const stop = () => {
      running?.abort();
      running = undefined;
    };
    return {
      stop,
      ref: (el: Element | null) => void (element = el),
      reset() {
        stop();
        element?.replaceChildren();
        setState({});
      },
      finish(pending: PendingPayment) {
        stop();
        const mine = (running = new AbortController());
        // Rendered now, so that an element shown only while a payment is pending is there for the form.
        flushSync(() => setState({ pending }));
        const settle = (next: PendingPaymentState) => {
          if (running !== mine) return;
          running = undefined;
          setState(next);
        };
        const done = handlePending(pending, {
          ...(latest.current as HandlePendingOptions),
          container: element ?? undefined,
          signal: mine.signal,
        });
        done.then(
          (outcome) => settle({ outcome }),
          (error: PayframeError) => settle({ error }),
        );
        return done;
      },
    };
  });
  useEffect(() => own.stop, [own]);
  return { ...state, ref: own.ref, finish: own.finish, reset: own.reset };
}
