/**
 * The page's one handler for what its frames say, each message already let through by the mount's
 * port (protocol/port.ts): a frame ready, a field's state, a frame's height, a config refused, and the
 * worker frame's answers to its jobs.
 */
import type { Config, Out, ToPage, Tokenize } from '../../protocol/messages';
import type { FieldName } from '../../shared/names';
import { PayframeError } from '../../shared/errors';
import type { FormControl } from './form';
import type { Jobs } from './jobs';
import type { LoadWatch } from './load-watch';
import type { Spec } from './mount-options';

/** What the handler reads and changes of the mount. */
export interface Heard {
  iframes: Map<FieldName, HTMLIFrameElement>;
  /** Frames that said they take input. */
  ready: Set<FieldName>;
  /** Each field's version in its last state: the number frame pays no value older than what the page validated. */
  seen: Tokenize['seen'];
  /** The frame that does the form's work, the only one whose job answers count. */
  worker: FieldName;
  control: FormControl;
  jobs: Jobs;
  watch: LoadWatch;
  specs: Map<FieldName, Spec>;
  post(name: FieldName, m: Out<Config>): void;
  config(name: FieldName): Out<Config>;
}

/** The handler of the messages from the frame `name`. */
export const fromFrames =
  (h: Heard) =>
  (m: ToPage, name: FieldName): void => {
    if (m.t === 'ready') {
      // The frame's label (the page's own, or the frame's name for the field in the locale) names the frame.
      h.iframes.get(name)!.title = m.label;
      if (h.ready.has(name)) return; // ready again with a new config (a locale)
      h.ready.add(name);
      // What changed between its load and now (a setDisabled) was posted to no one: the config of the moment.
      h.post(name, h.config(name));
      if (h.ready.size === h.specs.size) {
        h.watch.stop();
        h.control.ready();
        // The tokenize job's code, off the mount's path and before the payer's first Pay.
        if (h.worker === 'number') h.jobs.prefetch();
      }
    } else if (m.t === 'state') {
      h.seen[name] = m.n;
      h.control.update(name, m.event, m.state, name === 'number' ? m.brand : undefined);
      // Enter in a field submits the page's form, as in any input of that form.
      if (m.event === 'submit') h.specs.get(name)!.container.closest('form')?.requestSubmit?.();
    } else if (m.t === 'resize') h.iframes.get(name)!.style.height = `${Math.ceil(m.height)}px`;
    else if (m.t === 'failure' && m.id === 0) h.control.fail(new PayframeError('invalid_config', m.error.message));
    else if (name === h.worker) h.jobs.answer(m);
  };
