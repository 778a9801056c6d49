/**
 * Why a mount's frames did not come up, said as soon as the browser lets the page know: the page's own
 * CSP blocked them (its violation event, at once); a frame's document arrived but no payframe frame spoke
 * in it (a few seconds after its `load`); nothing arrived at all (after `timeoutMs`, so that a slow frame
 * host still loads). The page cannot look into a cross-origin frame, so where the causes look alike to
 * it (an unreachable host's error page, a host that refuses this page's origin, some other page) the
 * error names them all, and how to tell them apart.
 */
import type { FieldName } from '../../protocol/names';
import { PayframeError } from '../../shared/errors';

/** From a frame's `load` to its `ready`: one message each way within the browser, never the network. */
export const SILENT_MS = 3000;

export interface LoadWatch {
  /** A frame's iframe is made with this `src`. */
  made(name: FieldName, src: string): void;
  /** A frame's document arrived (its iframe's `load`). */
  loaded(name: FieldName): void;
  /** A frame spoke on the channel in words this page cannot read: another payframe version. */
  unreadable(name: FieldName): void;
  stop(): void;
}

interface Watched {
  base: string;
  fields: FieldName[];
  /** The frames that said `ready`. */
  ready: ReadonlySet<FieldName>;
  timeoutMs: number;
  failed(error: PayframeError): void;
}

const list = (names: FieldName[]) => `the ${names.join(', ')} field${names.length > 1 ? 's' : ''}`;

export function watchLoad({ base, fields, ready, timeoutMs, failed }: Watched): LoadWatch {
  const origin = new URL(base).origin;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const waiting = () => fields.filter((n) => !ready.has(n));
  let over = false;
  const fail = (error: PayframeError) => {
    if (over) return;
    watch.stop();
    failed(error);
  };
  const later = (ms: number, then: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      then();
    }, ms);
    timers.add(timer);
  };

  /** The frames' URLs as a violation names them: without their fragment. */
  const ours = new Set<string>();
  const onViolation = (event: SecurityPolicyViolationEvent) => {
    // The browser's own report only (a page script can dispatch the event), about one of this mount's
    // frames, not another page of the frame origin; Chromium names a cross-origin frame by its origin
    // alone (no path), which is all it lets the page know. A report-only policy blocks nothing
    // (merchants roll a CSP out that way first): the frames load.
    const blocked = event.blockedURI;
    if (
      !event.isTrusted ||
      event.disposition === 'report' ||
      !/^(frame|child|default)-src$/.test(event.effectiveDirective) ||
      (blocked !== origin && !ours.has(blocked))
    )
      return;
    const names = waiting();
    fail(
      new PayframeError(
        'invalid_config',
        `the page's Content Security Policy blocked ${list(names)} (${event.effectiveDirective}): add ${origin} to its frame-src`,
        {
          reason: 'FRAME_BLOCKED_BY_CSP',
          fields: names,
        },
      ),
    );
  };
  document.addEventListener('securitypolicyviolation', onViolation);

  later(timeoutMs, () => {
    const names = waiting();
    fail(
      new PayframeError(
        'timeout',
        `${list(names)} did not arrive from ${origin} in ${timeoutMs} ms: the frame host is slow or does not answer (check that ${base} opens from the payer's browser)`,
        {
          fields: names,
        },
      ),
    );
  });

  /** Frames whose document arrived. */
  const arrived = new Set<FieldName>();
  // Firefox fires no `load` for a frame whose host it cannot reach, but times the failed navigation: an
  // iframe's resource entry of no duration (WebKit gives neither: timeoutMs). An entry with a duration
  // is a page that arrived, whose script may still be on its way: its `load` starts the clock.
  const bySrc = new Map<string, FieldName>();
  const timing =
    typeof PerformanceObserver === 'function'
      ? new PerformanceObserver((entries) => {
          for (const entry of entries.getEntries()) {
            const name =
              (entry as PerformanceResourceTiming).initiatorType === 'iframe' && entry.duration === 0 ? bySrc.get(entry.name) : undefined;
            if (name) watch.loaded(name);
          }
        })
      : undefined;
  try {
    timing?.observe({ type: 'resource' });
  } catch {
    // An engine without resource timing: the frames' `load` alone.
  }
  const watch: LoadWatch = {
    made(name, src) {
      bySrc.set(new URL(src).href, name);
      ours.add(src.split('#')[0]!);
    },
    loaded(name) {
      if (arrived.has(name)) return;
      arrived.add(name);
      later(SILENT_MS, () => {
        if (ready.has(name)) return;
        // Every frame silent so far: they come from one host, and usually fail alike.
        const names = waiting().filter((n) => arrived.has(n));
        fail(
          new PayframeError(
            'network',
            `${list(names)}: the page arrived from ${origin}, but no payframe frame spoke in it. ` +
              `Either ${origin} is unreachable (open ${base} in a tab: the browser shows the connection error), ` +
              `or its frame host refuses this page's origin ${location.origin} (add it to the host's merchantOrigins), ` +
              `or ${base} serves some other page than payframe's frames.`,
            { reason: 'FRAME_NOT_ANSWERING', fields: names },
          ),
        );
      });
    },
    unreadable(name) {
      fail(
        new PayframeError(
          'invalid_config',
          `${list([name])}'s frame from ${origin} speaks another version of payframe: serve the frames of this version`,
          {
            reason: 'FRAME_VERSION',
            fields: [name],
          },
        ),
      );
    },
    stop() {
      over = true;
      timers.forEach(clearTimeout);
      timers.clear();
      timing?.disconnect();
      document.removeEventListener('securitypolicyviolation', onViolation);
    },
  };
  return watch;
}
