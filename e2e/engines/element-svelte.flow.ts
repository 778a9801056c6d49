// A Svelte 5 checkout with <payframe-card-fields>, docs/frameworks.md's files as written, built by Vite and
// Svelte's compiler: a payer's card, bound to Svelte state by the element's events, pays; the parent's state
// changes, Svelte moves the checkout (a keyed each sorted again) and unmounts it while a Pay runs.
import { readmeBlock } from '../../test/readme';
import { elementFlow } from './harness/element';

elementFlow('svelte', {
  'vite.config.ts': readmeBlock('frameworks/svelte/vite.config.ts'),
  'main.ts': readmeBlock('frameworks/svelte/main.ts'),
  'Checkout.svelte': readmeBlock('frameworks/svelte/Checkout.svelte'),
});
