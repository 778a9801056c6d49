/**
 * `attachForm`: the hosted form's formatting, validation, events and `tokenize()` on the merchant's
 * own `<input>`s. Outside the iframe isolation: every script on the page can read these inputs, so
 * the card data is in the merchant's PCI scope (see docs/client.md, "`attachForm`: your own inputs").
 */
import type { BrandId } from '../../card/brands';
import { type BoundField, bindField, brandInfo, cvvSizes, readBrands } from '../../fields';
import { formCard } from '../../nonce/form-card';
import { FIELD_NAMES, type FieldName } from '../../shared/names';
import { configError } from '../../shared/errors';
import { coreOf } from '../core/core';
import type { Client } from '../core/types';
import { elementOf } from '../dom';
import { loadChunk } from '../load';
import { createForm } from './form';
import type { CardForm } from './types';

type InputRef = string | HTMLInputElement;

export interface AttachOptions {
  client: Client;
  number: InputRef;
  expiry: InputRef;
  cvv: InputRef;
  name?: InputRef;
  /** The brands you take, as in `mountFields`; default `['visa', 'mastercard', 'american-express', 'discover']`. */
  brands?: BrandId[];
  /** Aborting it detaches the form. */
  signal?: AbortSignal;
}

const WHO = 'attachForm';

/** The merchant's inputs by field (the name's is optional). */
function inputsOf(options: AttachOptions): Map<FieldName, HTMLInputElement> {
  const inputs = new Map<FieldName, HTMLInputElement>();
  for (const name of FIELD_NAMES) {
    const given = options[name];
    if (given === undefined && name === 'name') continue;
    const el = elementOf(given);
    if (!(el instanceof HTMLInputElement)) throw configError(`${name} must be an <input> or the selector of one`, WHO);
    inputs.set(name, el);
  }
  return inputs;
}

export function attachForm(options: AttachOptions): CardForm {
  if (options === null || typeof options !== 'object') throw configError('needs an options object', WHO);
  const { client, signal } = options;
  const core = coreOf(client);
  if (!core) throw configError('client must come from createClient', WHO);
  const brands = readBrands(options.brands);
  if (typeof brands === 'string') throw configError(brands, WHO);
  const inputs = inputsOf(options);

  const bound = new Map<FieldName, BoundField>();
  const value = (name: FieldName) => inputs.get(name)?.value ?? '';
  const report = (name: FieldName, event?: 'input' | 'focus' | 'blur' | 'submit') => {
    const field = bound.get(name)!;
    if (name !== 'number') return control.update(name, event, field.state());
    const brand = brandInfo(field.brand());
    const cvv = bound.get('cvv')!;
    cvv.setCvvSizes(cvvSizes(brand));
    control.update(name, event, field.state(), brand);
    control.update('cvv', undefined, cvv.state());
  };
  const onAbort = () => control.form.destroy();

  const control = createForm(inputs, {
    command(name, m) {
      if (m.t === 'focus') inputs.get(name)!.focus();
      else if (m.t === 'clear') bound.get(name)!.clear();
      else if (m.t === 'placeholder') inputs.get(name)!.placeholder = m.text;
    },
    locale: () => undefined,
    // The merchant's own inputs: disabled as the hosted fields are; their look is the merchant's own.
    set: ({ disabled }) => disabled !== undefined && inputs.forEach((input) => (input.disabled = disabled)),
    // The merchant's own inputs say what the classes say (in the hosted form the frames do it inside).
    painted: (name, invalid) => {
      const input = inputs.get(name)!;
      if (invalid === undefined) input.removeAttribute('aria-invalid');
      else input.setAttribute('aria-invalid', String(invalid));
    },
    send(stop) {
      const names = [...inputs.keys()];
      const card = formCard(Object.fromEntries(names.map((n) => [n, value(n)])), names, cvvSizes(bound.get('number')!.brand()), brands);
      // The nonce call loads with client.tokenize's chunk, at the first tokenize().
      return loadChunk(import('../core/tokenize'), 'tokenize').then((m) => m.tokenizeCard(core, card, stop));
    },
    teardown() {
      bound.forEach((field) => field.unbind());
      signal?.removeEventListener('abort', onAbort);
    },
  });

  for (const [name, input] of inputs) {
    const field = bindField(input, name, (event) => report(name, event));
    field.brands = brands;
    bound.set(name, field);
  }
  for (const name of inputs.keys()) report(name);
  signal?.addEventListener('abort', onAbort);
  if (signal?.aborted) onAbort();
  queueMicrotask(() => control.ready());
  return control.form;
}
