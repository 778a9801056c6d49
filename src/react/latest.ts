import { useInsertionEffect, useRef } from 'react';

/**
 * The value of the last committed render, for code that runs later (a frame's event, an awaited
 * call): no stale closure, and no re-subscription when a handler prop is a new function each render.
 * Set in an insertion effect: before any other effect of the commit reads it, never by a render that
 * React throws away, and a no-op on the server (a layout effect warns there in React 18).
 */
export function useLatest<T>(value: T): { readonly current: T } {
  const ref = useRef(value);
  useInsertionEffect(() => {
    ref.current = value;
  });
  return ref;
}
