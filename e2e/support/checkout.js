// The test merchant's checkout script (served from its own origin: the page's CSP allows no inline
// script). It records what the page can see, so the tests can prove that no card data reached it.
(() => {
  const query = new URLSearchParams(location.search);
  const recorded = (window.recorded = { messages: [], violations: [], events: [], errors: [] });
  addEventListener('message', (e) => recorded.messages.push({ origin: e.origin, data: JSON.stringify(e.data) }), true);
  document.addEventListener('securitypolicyviolation', (e) => recorded.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  addEventListener('error', (e) => recorded.errors.push(String(e.message)));
  addEventListener('unhandledrejection', (e) =>
    recorded.errors.push(`unhandled rejection: ${e.reason && (e.reason.code || e.reason.message)}`),
  );

  const locale = query.get('locale') === 'ar' ? 'ar' : 'en';
  const text = {
    en: {
      hints: {
        number: 'Check the card number.',
        expiry: 'Check the expiry date.',
        cvv: 'Check the security code.',
        name: 'Enter the name on the card.',
      },
    },
    ar: {
      labels: {
        shop: 'مكتبة الزاوية',
        title: 'ادفع 25.00 دولار',
        'email-label': 'البريد الإلكتروني',
        'number-label': 'رقم البطاقة',
        'expiry-label': 'تاريخ الانتهاء',
        'cvv-label': 'رمز الأمان',
        'name-label': 'الاسم على البطاقة',
        'pay-button': 'ادفع 25.00 دولار',
      },
      hints: {
        number: 'تحقق من رقم البطاقة.',
        expiry: 'تحقق من تاريخ الانتهاء.',
        cvv: 'تحقق من رمز الأمان.',
        name: 'أدخل الاسم كما يظهر على البطاقة.',
      },
    },
  }[locale];
  if (locale === 'ar') {
    document.documentElement.lang = 'ar';
    document.documentElement.dir = 'rtl';
    for (const [id, value] of Object.entries(text.labels)) document.getElementById(id).textContent = value;
  }

  const client = Payframe.createClient({
    merchantId: query.get('merchant'),
    baseUrl: query.get('gateway'),
    authorization: () => fetch('/client-token', { method: 'POST' }).then((r) => r.json()),
    timeoutMs: Number(query.get('timeout')) || undefined, // a test's shorter deadline
  });
  window.client = client;
  const fields = {
    number: { container: '#card-number', placeholder: '1234 5678 9012 3456' },
    expiry: { container: '#card-expiry' },
    cvv: { container: '#card-cvv' },
    name: { container: '#card-name' },
  };
  const styles = {
    base: { color: '#1f2328', 'font-size': '16px' },
    focus: { outline: 'none' },
    invalid: { color: '#b3261e' },
    placeholder: { color: '#6e7781' },
  };

  const showHints = () => {
    for (const name of Object.keys(fields)) {
      const invalid = document.querySelector(fields[name].container).classList.contains('payframe-field--invalid');
      document.getElementById(`${name}-hint`).textContent = invalid ? text.hints[name] : '';
    }
  };
  // A live checkout's frames come from the merchant's frame host; the sandbox's serve themselves.
  const frameUrl = query.get('frameUrl') || undefined;
  window.mount = (extra = {}) => {
    const form = Payframe.mountFields({ client, fields, locale, styles, frameUrl, ...extra });
    for (const name of ['ready', 'focus', 'blur', 'change', 'brandChange', 'validityChange', 'submit', 'error']) {
      form.on(name, (state, field) => {
        recorded.events.push([name, field ?? null, name === 'error' ? state.code : (state.brand && state.brand.id) || null]);
        showHints();
      });
    }
    return form;
  };
  if (query.get('auto') !== '0') window.form = window.mount();

  const button = document.getElementById('pay-button');
  const status = document.getElementById('status');
  document.getElementById('pay').addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!window.form || button.disabled) return;
    button.disabled = true;
    status.textContent = locale === 'ar' ? 'جارٍ الدفع…' : 'Paying…';
    try {
      const card = await window.form.tokenize();
      window.lastCard = card;
      const response = await fetch('/pay', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ nonce: card.nonce, name: card.name }),
      });
      const paid = await response.json();
      if (paid.status === 'pending') {
        // The bank asks for a one-time password: the page's own form, finished through the merchant's server.
        const submitOtp = (body, { signal }) =>
          fetch('/authenticate', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
            signal,
          }).then((r) => r.json());
        // A test may add options (the merchant's texts of the OTP form).
        const options = { client, mode: 'otp', container: '#otp', submitOtp, locale, ...window.pendingOptions };
        const done = await Payframe.handlePending(paid.pending, options);
        status.textContent = `Paid: ${done.state} ${card.brand} ${card.last4}`;
        return;
      }
      status.textContent = `Paid: ${paid.state} ${card.brand} ${card.last4}`;
    } catch (error) {
      status.textContent = `${error.code}: ${error.fields ? error.fields.join(', ') : error.message}`;
      showHints();
    } finally {
      button.disabled = false;
    }
  });
})();
