// What the framework pages' tests read (served beside the built app, under the page's CSP): every
// message the page's window heard, its errors, and the element's events (capture listeners on the
// document hear those that do not bubble).
(() => {
  const recorded = (window.recorded = { messages: [], events: [], errors: [] });
  addEventListener('message', (e) => recorded.messages.push({ origin: e.origin, data: JSON.stringify(e.data) }), true);
  addEventListener('error', (e) => recorded.errors.push(String(e.message)));
  addEventListener('unhandledrejection', (e) =>
    recorded.errors.push(`unhandled rejection: ${e.reason && (e.reason.code || e.reason.message)}`),
  );
  for (const type of ['ready', 'focus', 'blur', 'change', 'validitychange', 'brandchange', 'submit', 'error']) {
    document.addEventListener(
      type,
      (e) =>
        e.target.localName === 'payframe-card-fields' &&
        recorded.events.push([type, e.detail.field ?? (e.detail.error && e.detail.error.code) ?? null]),
      true,
    );
  }
})();
