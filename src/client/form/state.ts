/**
 * The form's state and events, apart from the `CardForm` object (form.ts): each field's state and the
 * brand, the classes on the merchant's elements, and the merchant's handlers, each heard once.
 */
// Straight to the file: the fields/ index would bring the card core to a page that only mounts fields.
import { showsInvalid } from '../../fields/state';
import type { BrandInfo, FieldState } from '../../protocol/messages';
import { FORM_EVENTS, type FieldEvent, type FieldName } from '../../shared/names';
import { PayframeError } from '../../shared/errors';
import type { FormEvents, FormState } from './types';

/** The classes on each field's element (the container, or the merchant's own input): `payframe-field`, and `payframe-field--<state>`. */
const CLASS = 'payframe-field';

/** A field's state before anything is typed, and again when its frame is made anew. */
export const emptyState = (): FieldState => ({
  isEmpty: true,
  isValid: false,
  isPotentiallyValid: true,
  isFocused: false,
  reason: 'empty',
});

type Handler = (...args: any[]) => void;

/** The merchant's handlers, by event. */
function formEvents() {
  const handlers = new Map<keyof FormEvents, Set<Handler>>();
  /**
   * The handlers of `event` now, as one function that calls each: a handler that throws surfaces as the
   * merchant's own bug, and the others still run.
   */
  const taken = (event: keyof FormEvents) => {
    const list = [...(handlers.get(event) ?? [])];
    return (...args: unknown[]) => {
      for (const handler of list)
        try {
          handler(...args);
        } catch (error) {
          queueMicrotask(() => {
            throw error;
          });
        }
    };
  };
  return {
    taken,
    on<E extends keyof FormEvents>(event: E, handler: FormEvents[E], refused: (message: string) => Error) {
      if (!FORM_EVENTS.includes(event) || typeof handler !== 'function')
        throw refused(`on() takes one of ${FORM_EVENTS.join(', ')} and a function`);
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event)!.add(handler);
      return () => void handlers.get(event)?.delete(handler);
    },
    off: <E extends keyof FormEvents>(event: E, handler: FormEvents[E]) => void handlers.get(event)?.delete(handler),
    clear: () => handlers.clear(),
  };
}

/** What the state tells the form's owner: the classes painted, and a field refused by a call (`touch`). */
interface Told {
  /** After the classes: whether the field shows as invalid (undefined when the form lets go of it). */
  painted?(field: FieldName, invalid: boolean | undefined): void;
  command(field: FieldName, m: { t: 'touch' }): void;
}

export function formState(elements: Map<FieldName, Element>, told: Told) {
  const names = [...elements.keys()];
  const fields = new Map<FieldName, FieldState>(names.map((n) => [n, emptyState()]));
  const touched = new Set<FieldName>();
  const events = formEvents();
  let brand: BrandInfo | undefined;
  const getState = (): FormState => ({
    fields: Object.fromEntries([...fields].map(([n, s]) => [n, { ...s }])),
    brand: brand && { ...brand, code: { ...brand.code } },
    isValid: [...fields.values()].every((s) => s.isValid),
  });
  const emit = (event: keyof FormEvents, name?: FieldName) => events.taken(event)(getState(), name);
  const paint = (name: FieldName, clean = false) => {
    const s = fields.get(name)!;
    const invalid = !clean && showsInvalid(s, touched.has(name));
    const on = { '': true, focused: s.isFocused, valid: s.isValid, invalid, empty: s.isEmpty };
    for (const [key, value] of Object.entries(on)) elements.get(name)!.classList.toggle(key ? `${CLASS}--${key}` : CLASS, !clean && value);
    told.painted?.(name, clean ? undefined : invalid);
  };
  names.forEach((name) => paint(name));
  return {
    getState,
    taken: events.taken,
    emit,
    /** The fields that are not valid now show as invalid, and the call is refused naming them and why (the frames' reasons). */
    check() {
      const bad = names.filter((n) => !fields.get(n)!.isValid);
      if (bad.length === 0) return;
      const reasons: Partial<Record<FieldName, FieldState['reason']>> = {};
      for (const n of bad) {
        touched.add(n);
        paint(n);
        reasons[n] = fields.get(n)!.reason;
        told.command(n, { t: 'touch' });
      }
      throw new PayframeError('invalid_card', `incomplete card details: ${bad.join(', ')}`, { fields: bad, reasons });
    },
    on: events.on,
    off: events.off,
    /** A field reported its state; `event` names what happened, if anything the merchant hears. */
    update(name: FieldName, event: FieldEvent | undefined, state: FieldState, next?: BrandInfo | null) {
      const before = fields.get(name)!;
      const brandMoved = next !== undefined && next?.id !== brand?.id;
      fields.set(name, state);
      if (brandMoved) brand = next ?? undefined;
      paint(name);
      if (event) emit(event === 'input' ? 'change' : event, name);
      if (before.isValid !== state.isValid || before.isPotentiallyValid !== state.isPotentiallyValid) emit('validityChange', name);
      if (brandMoved) emit('brandChange', name);
    },
    /** The form lets go of the elements and of the handlers. */
    clean() {
      for (const name of names) paint(name, true);
      events.clear();
    },
  };
}
