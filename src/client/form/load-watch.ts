/**
 * Why a mount's frames did not come up, said as soon as the browser lets the page know: the page's own
 * CSP blocked them (its violation event, at once); a frame's document arrived but no payframe frame spoke
 * in it (a few seconds after its `load`); nothing arrived at all (after `timeoutMs`, so that a slow frame
 * host still loads). The page cannot look into a cross-origin frame, so where the causes look alike to
 * it (an unreachable host's error page, a host that refuses this page's origin, some other page) the
 * error names them all, and how to tell them apart. Its messages are terse: every byte here is the page's.
 */
import type { FieldName } from '../../shared/names';
import { type ErrorCode, PayframeError } from '../../shared/errors';

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

/**
 * Firefox fires no `load` for a frame whose host it cannot reach, but times the failed navigation: an
 * iframe's resource entry of no duration (WebKit gives neither: timeoutMs). An entry with a duration
 * is a page that arrived, whose script may still be on its way: its `load` starts the clock.
 */
function failedNavigations(ours: Map<string, FieldName>, loaded: (name: FieldName) => void): PerformanceObserver | undefined {
  try {
    const timing = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const name = ours.get(entry.name);
        if (name && !entry.duration && (entry as PerformanceResourceTiming).initiatorType === 'iframe') loaded(name);
      }
    });
    timing.observe({ type: 'resource' });
    return timing;
  } catch {
    return undefined; // an engine without resource timing: the frames' `load` alone
  }
}

export function watchLoad({ base, fields, ready, timeoutMs, failed }: Watched): LoadWatch {
  const origin = new URL(base).origin;
  const timers: ReturnType<typeof setTimeout>[] = [];
  const later = (ms: number, then: () => void) => timers.push(setTimeout(then, ms));
  /**
   * Fails the mount for the fields of `among` not ready yet, the message starting with them. Failing
   * tears the form down, which stops this watch: nothing fails twice.
   */
  const fail = (code: ErrorCode, text: string, reason?: string, among = fields) => {
    const names = among.filter((n) => !ready.has(n));
    failed(new PayframeError(code, `the ${names.join(', ')} field${names[1] ? 's' : ''}${text}`, { reason, fields: names }));
  };

  /** This mount's frames by URL: as an iframe's resource entry names it, and as a violation does (no fragment). */
  const ours = new Map<string, FieldName>();
  const onViolation = (event: SecurityPolicyViolationEvent) => {
    // The browser's own report only (a page script can dispatch the event), about one of this mount's
    // frames, not another page of the frame origin; Chromium names a cross-origin frame by its origin
    // alone (no path), which is all it lets the page know. A report-only policy blocks nothing
    // (merchants roll a CSP out that way first): the frames load.
    const blocked = event.blockedURI;
    const directive = event.effectiveDirective;
    if (
      event.isTrusted &&
      event.disposition !== 'report' &&
      /^(frame|child|default)-src$/.test(directive) &&
      (blocked === origin || ours.has(blocked))
    )
      fail('invalid_config', ` blocked by the page's CSP (${directive}): add ${origin} to its frame-src`, 'FRAME_BLOCKED_BY_CSP');
  };
  document.addEventListener('securitypolicyviolation', onViolation);

  later(timeoutMs, () =>
    fail('timeout', ` did not arrive from ${origin} in ${timeoutMs} ms: check that ${base} opens from the payer's browser`),
  );

  /** Frames whose document arrived. */
  const arrived = new Set<FieldName>();
  const timing = failedNavigations(ours, (name) => watch.loaded(name));
  const watch: LoadWatch = {
    made(name, src) {
      ours.set(new URL(src).href, name).set(src.split('#')[0]!, name);
    },
    loaded(name) {
      if (arrived.has(name)) return;
      arrived.add(name);
      // Every frame silent so far: they come from one host, and usually fail alike.
      later(
        SILENT_MS,
        () =>
          !ready.has(name) &&
          fail(
            'network',
            `: the page arrived from ${origin}, but no payframe frame spoke in it: the host is unreachable (open ${base} in a tab), ` +
              `refuses this page's origin ${location.origin} (add it to its merchantOrigins), or serves some other page`,
            'FRAME_NOT_ANSWERING',
            fields.filter((n) => arrived.has(n)),
          ),
      );
    },
    unreadable: (name) => fail('invalid_config', `: its frame from ${origin} speaks another version of payframe`, 'FRAME_VERSION', [name]),
    stop() {
      timers.forEach(clearTimeout);
      timing?.disconnect();
      document.removeEventListener('securitypolicyviolation', onViolation);
    },
  };
  return watch;
}
