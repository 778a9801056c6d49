// The script-tag file dist/payframe.element.min.js, loaded by its own <script src> after
// payframe.umd.min.js (or payframe.full.umd.min.js): it takes `mountFields` and `createClient` from
// the global `Payframe` and defines <payframe-card-fields> as it loads. A file beside the bundle, not
// in it: a page without the element pays nothing for it.
import { defineElements } from './index';

defineElements();
