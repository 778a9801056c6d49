/** The card form's event handlers: checked when added, each called on its own so one bug stops no other. */
import { FORM_EVENTS } from '../../protocol/names';
import { PayframeError } from '../../shared/errors';
import type { FormEvents } from './types';

type Handler = (...args: any[]) => void;

export function createEvents() {
  const handlers = new Map<keyof FormEvents, Set<Handler>>();
  /**
   * The handlers of `event` now, as one function that calls each: a handler that throws surfaces as the
   * merchant's own bug, and the others still run.
   */
  const taken = (event: keyof FormEvents) => {
    const list = [...(handlers.get(event) ?? [])];
    return (...args: unknown[]) => {
      for (const handler of list) {
        try {
          handler(...args);
        } catch (error) {
          queueMicrotask(() => {
            throw error;
          });
        }
      }
    };
  };
  return {
    on(event: keyof FormEvents, handler: Handler) {
      if (!(FORM_EVENTS as readonly string[]).includes(event) || typeof handler !== 'function') {
        throw new PayframeError('invalid_request', `on() takes one of ${FORM_EVENTS.join(', ')} and a function`);
      }
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event)!.add(handler);
    },
    off: (event: keyof FormEvents, handler: Handler) => void handlers.get(event)?.delete(handler),
    emit: (event: keyof FormEvents, ...args: unknown[]) => taken(event)(...args),
    /** The handlers of `event` now, to call after `clear()`. */
    taken,
    clear: () => handlers.clear(),
  };
}
