// @vitest-environment happy-dom
// <payframe-card-fields> on the page's side, the frames played by stand-ins (test/client/stand-in-frames.ts):
// when it mounts, what it applies in place and what mounts another form, a move and a removal, and its
// typed errors. The payer's flows with real frames, Vue and Svelte run in every engine (e2e/engines/element-*.flow.ts).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../src';
import { defineElements } from '../../src/element';
import type { CardFieldsElement } from '../../src/element/types';
import { standInFrames } from '../client/stand-in-frames';

const GATEWAY = 'https://127.0.0.1:8443';
const task = () => new Promise((resolve) => setTimeout(resolve, 0));
const iframes = () => [...document.querySelectorAll('iframe')];

let card: CardFieldsElement;
let events: [string, unknown][];
beforeEach(() => {
  defineElements();
  document.body.replaceChildren();
  standInFrames();
  card = document.createElement('payframe-card-fields') as CardFieldsElement;
  for (const name of ['number', 'expiry', 'cvv']) {
    const box = document.createElement('div');
    box.setAttribute('data-payframe-field', name);
    card.append(box);
  }
  events = [];
  card.addEventListener('error', (e) => events.push(['error', e.detail.error.code]));
});

describe('<payframe-card-fields> mounts', () => {
  it('mounts once what one task set, from attributes and properties, and adds no style', async () => {
    document.body.append(card);
    card.setAttribute('merchant-id', 'shop-1');
    card.setAttribute('gateway-url', GATEWAY);
    card.authorization = async () => 'token';
    card.styles = { base: { color: 'red' } };
    expect(iframes()).toHaveLength(0); // nothing until the task's changes are all in
    await task();
    expect(iframes()).toHaveLength(3);
    expect(card.form).toBeDefined();
    expect(document.querySelectorAll('[style]:not(iframe)')).toHaveLength(0);
    expect([...card.querySelectorAll('[data-payframe-field]')].every((box) => box.classList.contains('payframe-field'))).toBe(true);
    expect(events).toEqual([]);
  });

  it('applies locale, styles, disabled and placeholders in place; another frame-url, client or box mounts another form', async () => {
    card.client = createClient({ merchantId: 'shop-1', baseUrl: GATEWAY, authorization: async () => 'token' });
    document.body.append(card);
    await task();
    const [form, frames] = [card.form!, iframes()];
    const calls = (['setLocale', 'setStyles', 'setDisabled', 'setPlaceholder'] as const).map((name) => vi.spyOn(form, name));
    card.locale = 'ar';
    card.styles = { base: { color: 'red' } };
    card.styles = { base: { color: 'red' } }; // a new object, the same value: nothing to apply
    card.setDisabled(true);
    card.querySelector('[data-payframe-field=number]')!.setAttribute('placeholder', '1234');
    await task();
    expect(card.form).toBe(form);
    expect(iframes()).toEqual(frames);
    expect(calls.map((spy) => spy.mock.calls)).toEqual([
      [['ar', {}]],
      [[{ base: { color: 'red' } }]],
      [[true]],
      [['number', '1234']], // the others keep theirs: the expiry's default is its format
    ]);
    expect(events).toEqual([]);

    card.setAttribute('frame-url', 'https://frames.example/');
    await task();
    expect(card.form).not.toBe(form);
    const second = card.form;
    const name = document.createElement('div');
    name.setAttribute('data-payframe-field', 'name');
    card.append(name);
    await task();
    expect(card.form).not.toBe(second);
    expect(iframes()).toHaveLength(4);
  });
});

describe('<payframe-card-fields> goes', () => {
  it('keeps its form through a move in one task; removed, destroys it a task later and tokenize() rejects', async () => {
    card.client = createClient({ merchantId: 'shop-1', baseUrl: GATEWAY, authorization: async () => 'token' });
    const [left, right] = [document.createElement('section'), document.createElement('section')];
    document.body.append(left, right);
    left.append(card);
    await task();
    const form = card.form;
    right.append(card);
    await task();
    expect(card.form).toBe(form);

    card.remove();
    await task();
    expect(card.form).toBeUndefined();
    expect(iframes()).toHaveLength(0);
    await expect(card.tokenize()).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('says a bad option with a typed error event, and tokenize() rejects with it', async () => {
    card.setAttribute('merchant-id', '..');
    card.setAttribute('gateway-url', GATEWAY);
    card.authorization = async () => 'token';
    document.body.append(card);
    await task();
    expect(events).toEqual([['error', 'invalid_config']]);
    await expect(card.tokenize()).rejects.toMatchObject({ code: 'invalid_config' });

    card.setAttribute('merchant-id', 'shop-1');
    card.locale = 'xx-unknown';
    await task();
    expect(events.at(-1)).toEqual(['error', 'invalid_config']);
    expect(card.form).toBeUndefined();
    card.locale = 'en';
    await task();
    expect(card.form).toBeDefined();
    expect(card.error).toBeUndefined();
  });
});
