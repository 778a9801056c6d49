/**
 * `<CardFields>` owns one hosted card form (`mountFields`) and gives it to its children; `<CardNumber>`,
 * `<CardExpiry>`, `<CardCvv>` and `<CardName>` render the boxes the frames go in, wherever the merchant
 * puts them; `useCardForm()` gives the form's live state and its calls.
 *
 * The traps of a React binding, and what avoids each:
 * - server rendering: nothing runs outside effects, so a server renders the boxes and nothing else;
 * - StrictMode's mount, unmount, mount: one effect mounts, its cleanup destroys, into the same boxes;
 * - option objects new at each render: styles and fonts are compared by value, not by identity;
 * - locale, texts, placeholders, styles and disabled: applied to the mounted form (`setLocale`,
 *   `setPlaceholder`, `setStyles`, `setDisabled`), no remount;
 * - handlers passed as props: called through the last render's props (`useLatest`).
 */
import { createContext, type HTMLAttributes, type ReactNode, useContext, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import {
  type BrandId,
  type CardForm,
  type Client,
  type CvvAnswer,
  type FieldName,
  type FieldStyles,
  type FieldTextsByLocale,
  type FontSource,
  type FormEvents,
  type FormState,
  type LocaleTag,
  type MountOptions,
  mountFields,
  PayframeError,
  type PostCvvOptions,
  type TokenizeOptions,
  type TokenizeResult,
} from '../index';
import { useLatest } from './latest';

/** The form's events as props: `onChange` for `change`, and so on (see `FormEvents`). */
export type CardFieldsHandlers = { [K in keyof FormEvents as `on${Capitalize<K>}`]?: FormEvents[K] };

export interface CardFieldsProps extends CardFieldsHandlers {
  /** From `createClient`, made once (not at each render): another client mounts another form. None yet: the boxes wait. */
  client: Client | null | undefined;
  /** Applied in place (`setLocale`): the frames re-read the page's labels, and keep what was typed. */
  locale?: LocaleTag;
  /** Your texts by locale (see `mountFields`); compared by value, applied in place with the locale. */
  texts?: FieldTextsByLocale;
  /** Applied in place (`setStyles`), compared by value: the frames keep what was typed. */
  styles?: FieldStyles;
  /** Compared by value: a new but equal list keeps the form; another one mounts another form. */
  fonts?: FontSource[];
  /** The brand's mark in the number field (default true); another value mounts another form. */
  brandMark?: boolean;
  /** Applied in place (`setDisabled`): while a payment runs, the fields take no input. */
  disabled?: boolean;
  frameUrl?: string;
  timeoutMs?: number;
  /** The brands you take (`mountFields`' `brands`), compared by value; another list mounts another form. */
  brands?: BrandId[];
  /** A saved card paid again with its CVV (render `<CardCvv>` alone); another card mounts another form. */
  savedCard?: { id: string; brand: BrandId };
  children?: ReactNode;
}

export interface CardFormValue extends FormState {
  /** The mounted form (for `focus`, `clear`); undefined on the server and until the effect mounts it. */
  form: CardForm | undefined;
  /** Every field can be typed in. */
  ready: boolean;
  /** Why there is no working form (bad options `invalid_config`, frames that did not load `timeout`), or a change the form refused. */
  error: PayframeError | undefined;
  /** The current form's `tokenize()`; the same function at every render. */
  tokenize(options?: TokenizeOptions): Promise<TokenizeResult>;
  /** The current form's `postCvv()` (a saved card's form); the same function at every render. */
  postCvv(options: PostCvvOptions): Promise<CvvAnswer>;
}

interface Box {
  el: Element;
  placeholder: string | undefined;
}
interface Context extends CardFormValue {
  /** A field's box is on the page: answers what removes it. */
  add(name: FieldName, box: Box): () => void;
}
interface Live {
  form?: CardForm;
  state: FormState;
  ready: boolean;
  error?: PayframeError;
}

const EVENTS: (keyof FormEvents)[] = ['ready', 'focus', 'blur', 'change', 'validityChange', 'brandChange', 'submit', 'error'];
const START: Live = { state: { fields: {}, brand: undefined, isValid: false }, ready: false };
const Fields = createContext<Context | null>(null);
const none = () => Promise.reject(new PayframeError('invalid_request', 'no card form is mounted'));

/**
 * The form of the boxes on the page. `props`: those of the render whose effect mounts; `latest`: the
 * props now, for those whose change is applied in place (styles, fonts, locale, texts, brands).
 */
function mountBoxes(client: Client, boxes: Map<FieldName, Box>, props: CardFieldsProps, latest: CardFieldsProps): CardForm {
  const fields = Object.fromEntries([...boxes].map(([name, { el, placeholder }]) => [name, { container: el, placeholder }]));
  const { savedCard, brandMark, frameUrl, timeoutMs } = props;
  return mountFields({
    client,
    fields: fields as MountOptions['fields'],
    brand: savedCard?.brand,
    brands: latest.brands,
    styles: latest.styles,
    fonts: latest.fonts,
    brandMark,
    locale: latest.locale,
    texts: latest.texts,
    frameUrl,
    timeoutMs,
  });
}

/** The props that make another form or a setter's call, as text: what the effects compare. */
function keysOf(props: CardFieldsProps): [fonts: string, styles: string, words: string] {
  try {
    return [JSON.stringify(props.fonts) ?? '', JSON.stringify(props.styles) ?? '', JSON.stringify([props.locale, props.texts])];
  } catch {
    return ['', '', '']; // not plain data: mountFields, setStyles or setLocale says so
  }
}

/** What the form shows now of the locale and texts, and of the styles (as JSON). */
interface Shown {
  words: string;
  styles: string;
}

/**
 * The form's setters, each when its prop changes: the locale and texts, the styles, disabled. A form
 * whose mount was refused is made again instead (a locale it did not know, say).
 */
function useSetters(
  live: Live,
  shown: Shown,
  now: Shown & Pick<CardFieldsProps, 'disabled' | 'locale'>,
  props: () => CardFieldsProps,
  guard: (call: () => void) => void,
  again: () => void,
) {
  const { words, styles, disabled, locale } = now;
  useEffect(() => {
    if (shown.words === words) return;
    shown.words = words;
    if (live.form) guard(() => live.form!.setLocale(locale ?? 'en', props().texts ?? {}));
    else if (live.error) again(); // a mount refused (a locale it does not know, say): again, with this one
  }, [words, live.form]);

  useEffect(() => {
    if (shown.styles === styles) return;
    shown.styles = styles;
    if (live.form) guard(() => live.form!.setStyles(props().styles));
    else if (live.error) again();
  }, [styles, live.form]);

  useEffect(() => {
    if (live.form) guard(() => live.form!.setDisabled(disabled ?? false));
  }, [disabled, live.form]);
}

export function CardFields(props: CardFieldsProps) {
  const { client, savedCard, frameUrl, timeoutMs, brandMark, disabled } = props;
  const latest = useLatest(props);
  const [live, setLive] = useState(START);
  // What the effects share, made once: the boxes on the page, those of the mounted form, the form.
  const [own] = useState(() => ({
    boxes: new Map<FieldName, Box>(),
    mounted: new Map<FieldName, Box>(),
    form: undefined as CardForm | undefined,
    /** The locale and texts (as JSON) the form shows. */
    words: '',
    styles: '',
  }));
  const [generation, regenerate] = useReducer((n: number) => n + 1, 0);
  const [, recheck] = useReducer((n: number) => n + 1, 0);
  const brands = String(props.brands);
  const [fonts, styles, words] = keysOf(props);

  /** A setter's refusal (a locale it does not know, a placeholder too long) is the form's error, not a crash. */
  const guard = (call: () => void) => {
    try {
      call();
    } catch (error) {
      setLive((l) => ({ ...l, error: error as PayframeError }));
      latest.current.onError?.(error as PayframeError);
    }
  };

  useEffect(() => {
    // The field components' effects ran first (children before parents): their boxes are here.
    const boxes = (own.mounted = new Map([...own.boxes].map(([name, box]) => [name, { ...box }])));
    const report = (error: PayframeError) => {
      setLive((l) => ({ ...l, error }));
      latest.current.onError?.(error);
    };
    if (!client || boxes.size === 0) return undefined;
    const { locale: mountLocale, texts } = latest.current;
    let form: CardForm;
    try {
      form = mountBoxes(client, boxes, props, latest.current);
    } catch (error) {
      report(error as PayframeError);
      return undefined;
    }
    own.form = form;
    own.words = JSON.stringify([mountLocale, texts]);
    own.styles = styles;
    setLive({ ...START, form });
    for (const event of EVENTS) {
      form.on(event, (...args: any[]) => {
        if (event === 'error') return report(args[0]);
        setLive((l) => ({ ...l, state: form.getState(), ready: l.ready || event === 'ready' }));
        (latest.current[`on${event[0]!.toUpperCase()}${event.slice(1)}` as keyof CardFieldsHandlers] as any)?.(...args);
      });
    }
    return () => {
      own.form = undefined;
      form.destroy();
      setLive(START);
    };
  }, [client, savedCard?.id, savedCard?.brand, frameUrl, timeoutMs, fonts, brandMark, brands, generation]);

  // After every render: a field that came or went (another box) needs another form.
  useEffect(() => {
    const { boxes, mounted } = own;
    if (boxes.size !== mounted.size || [...boxes].some(([name, box]) => mounted.get(name)?.el !== box.el)) regenerate();
  });

  useSetters(live, own, { words, styles, disabled, locale: props.locale }, () => latest.current, guard, regenerate);
  const [calls] = useState(() => ({
    tokenize: (options?: TokenizeOptions) => own.form?.tokenize(options) ?? none(),
    postCvv: (options: PostCvvOptions) => own.form?.postCvv(options) ?? none(),
    add(name: FieldName, box: Box) {
      own.boxes.set(name, box);
      const mounted = own.mounted.get(name);
      if (own.form && mounted?.el === box.el && mounted.placeholder !== box.placeholder) {
        mounted.placeholder = box.placeholder;
        guard(() => own.form!.setPlaceholder(name, box.placeholder ?? ''));
      }
      recheck();
      return () => {
        if (own.boxes.get(name)?.el === box.el) own.boxes.delete(name);
        recheck();
      };
    },
  }));
  const value = useMemo(() => ({ ...live.state, ready: live.ready, error: live.error, form: live.form, ...calls }), [live]);
  return <Fields.Provider value={value}>{props.children}</Fields.Provider>;
}

function useFields(who: string): Context {
  const context = useContext(Fields);
  if (!context) throw new PayframeError('invalid_config', `${who} must be inside <CardFields>`);
  return context;
}

/** The live state and calls of the form of the nearest `<CardFields>`. */
export function useCardForm(): CardFormValue {
  const { add: _add, ...value } = useFields('useCardForm()');
  return value;
}

/** A field's box: a `<div>` with the props given (an `id` for the page's `<label htmlFor>`, a `className`). */
export interface CardFieldProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children' | 'dangerouslySetInnerHTML'> {
  /** Applied in place (`setPlaceholder`) when it changes. */
  placeholder?: string;
}

const field = (name: FieldName, who: string) =>
  function CardField({ placeholder, ...props }: CardFieldProps) {
    const { add } = useFields(who);
    const ref = useRef<HTMLDivElement>(null);
    useEffect(() => add(name, { el: ref.current!, placeholder }), [placeholder]);
    return <div {...props} ref={ref} />;
  };

export const CardNumber = field('number', '<CardNumber>');
export const CardExpiry = field('expiry', '<CardExpiry>');
export const CardCvv = field('cvv', '<CardCvv>');
export const CardName = field('name', '<CardName>');
