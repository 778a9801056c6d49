// A Vue 3 checkout with <payframe-card-fields>, docs/frameworks.md's files as written, built by Vite and
// Vue's compiler: a payer's card, bound to Vue state by the element's events, pays; the parent renders
// again, Vue moves the checkout (a keyed list sorted again) and unmounts it while a Pay runs.
import { readmeBlock } from '../../test/readme';
import { elementFlow } from './harness/element';

elementFlow('vue', {
  'vite.config.ts': readmeBlock('frameworks/vue/vite.config.ts'),
  'main.ts': readmeBlock('frameworks/vue/main.ts'),
  'Checkout.vue': readmeBlock('frameworks/vue/Checkout.vue'),
});
