/**
 * What `<payframe-card-fields>` does with its form, kept out of the element's class (made only when it
 * is defined, see card-fields.ts): from the element's attributes, properties and field boxes to one
 * mounted form, and from the form's events to the element's DOM events.
 */
import {
  type CardForm,
  type Client,
  createClient,
  type FieldName,
  type FormEvents,
  type FormState,
  type MountOptions,
  mountFields,
  PayframeError,
} from '../index';
import type { CardFieldsElement, CardFieldsProps } from './types';

export const FIELD = 'data-payframe-field';
const FORM_EVENTS: (keyof FormEvents)[] = ['ready', 'focus', 'blur', 'change', 'validityChange', 'brandChange', 'submit', 'error'];
export const EMPTY: FormState = { fields: {}, brand: undefined, isValid: false };

const json = (value: unknown) => {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(Math.random()); // not plain data: always "changed", so that mountFields or the setter says why
  }
};

/** What a mounted form was made with (`key`, `client`, `boxes`: another value mounts another form), and what it shows. */
interface Mounted {
  form: CardForm;
  key: string;
  client: Client;
  boxes: Map<Element, FieldName>;
  /** Each box's `placeholder` attribute, as the form shows it. */
  placeholders: Map<Element, string | null>;
  words: string;
  styles: string;
  disabled: boolean;
}

export class Binding {
  props: CardFieldsProps = {};
  mounted: Mounted | undefined;
  state = EMPTY;
  error: PayframeError | undefined;
  #made: { merchantId: string; baseUrl: string; authorization: unknown; client: Client } | undefined;
  #queued = false;

  constructor(private readonly host: CardFieldsElement) {}

  /** Without a form: the mount's error, the one `error` told, else `invalid_request`. */
  none(): Promise<never> {
    return Promise.reject(this.error ?? new PayframeError('invalid_request', 'no card form is mounted in <payframe-card-fields>'));
  }

  /** Every change queues one sync: a framework sets properties and attributes one by one, in one task. */
  queue() {
    if (this.#queued) return;
    this.#queued = true;
    queueMicrotask(() => {
      this.#queued = false;
      if (this.host.isConnected) this.#sync();
    });
  }

  destroy() {
    this.mounted?.form.destroy();
    this.mounted = undefined;
    this.state = EMPTY;
  }

  /** Only `change` bubbles, as an input's does (Svelte listens to `change` at its root); a bubbling `submit` would submit the page's form twice. */
  #emit(type: string, detail: object) {
    this.host.dispatchEvent(new CustomEvent(type, { detail, bubbles: type === 'change' }));
  }

  #fail(error: unknown) {
    this.error = error as PayframeError;
    this.#emit('error', { error });
  }

  /** The client given, or the one made from the attributes (made again only when one of the three changes). */
  #client(): Client | undefined {
    const { client, authorization } = this.props;
    if (client) return client;
    const [merchantId, baseUrl] = [this.host.getAttribute('merchant-id'), this.host.getAttribute('gateway-url')];
    if (!merchantId || !baseUrl || !authorization) return undefined;
    const made = this.#made;
    if (made?.merchantId === merchantId && made.baseUrl === baseUrl && made.authorization === authorization) return made.client;
    this.#made = { merchantId, baseUrl, authorization, client: createClient({ merchantId, baseUrl, authorization }) };
    return this.#made.client;
  }

  #sync() {
    let client: Client | undefined;
    try {
      client = this.#client();
    } catch (error) {
      this.destroy();
      return this.#fail(error);
    }
    const boxes = new Map([...this.host.querySelectorAll(`[${FIELD}]`)].map((el) => [el, el.getAttribute(FIELD) as FieldName]));
    const key = json([
      this.host.getAttribute('frame-url'),
      this.host.getAttribute('timeout-ms'),
      this.host.brands,
      this.props.fonts,
      [...boxes.values()],
    ]);
    const now = this.mounted;
    if (now && now.client === client && now.key === key && [...boxes.keys()].every((el) => now.boxes.has(el))) return this.#update(now);
    this.destroy();
    if (client && boxes.size > 0) this.#mount(client, boxes, key);
  }

  #mount(client: Client, boxes: Map<Element, FieldName>, key: string) {
    const { host } = this;
    const { styles, fonts, texts } = this.props;
    const fields = Object.fromEntries(
      [...boxes].map(([el, name]) => [name, { container: el, placeholder: el.getAttribute('placeholder') ?? undefined }]),
    ) as MountOptions['fields'];
    const timeout = host.getAttribute('timeout-ms');
    let form: CardForm;
    try {
      form = mountFields({
        client,
        fields,
        styles,
        fonts,
        texts,
        brands: host.brands,
        locale: host.locale,
        frameUrl: host.getAttribute('frame-url') ?? undefined,
        timeoutMs: timeout === null ? undefined : Number(timeout),
      });
    } catch (error) {
      return this.#fail(error);
    }
    this.error = undefined;
    const words = json([host.locale, texts]);
    const shown = new Map([...boxes.keys()].map((el) => [el, el.getAttribute('placeholder')]));
    this.mounted = { form, key, client, boxes, placeholders: shown, words, styles: json(styles), disabled: false };
    for (const event of FORM_EVENTS) {
      form.on(event, (...args: unknown[]) => {
        if (this.mounted?.form !== form) return;
        if (event === 'error') return this.#fail(args[0]);
        this.state = form.getState();
        this.#emit(event.toLowerCase(), { state: this.state, ...(args[1] ? { field: args[1] } : {}) });
      });
    }
    this.#update(this.mounted);
  }

  /** The changes a form takes in place; a refusal (a locale it does not know) is the element's `error` event. */
  #update(m: Mounted) {
    const { host, props } = this;
    const [words, styles] = [json([host.locale, props.texts]), json(props.styles)];
    try {
      if (m.words !== words) {
        m.words = words;
        m.form.setLocale(host.locale ?? 'en', props.texts ?? {});
      }
      if (m.styles !== styles) {
        m.styles = styles;
        m.form.setStyles(props.styles);
      }
      if (m.disabled !== host.disabled) m.form.setDisabled((m.disabled = host.disabled));
      // Only a box whose attribute changed: the others keep theirs (the expiry's default is its format).
      for (const [el, name] of m.boxes) {
        const text = el.getAttribute('placeholder');
        if (m.placeholders.get(el) === text) continue;
        m.placeholders.set(el, text);
        m.form.setPlaceholder(name, text ?? '');
      }
    } catch (error) {
      this.#fail(error);
    }
  }
}
