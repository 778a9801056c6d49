// The checkout's words in English and Arabic. Both checkouts and the return page use this one table.

export type Locale = 'en' | 'ar';

const en = {
  shop: 'Muscat Coffee Roasters',
  sandbox: 'Sandbox: no real money moves',
  language: 'Language',
  checkoutTitle: 'Checkout',
  orderSummary: 'Order summary',
  quantity: 'Quantity {n}',
  subtotal: 'Subtotal',
  shipping: 'Shipping',
  total: 'Total',
  payment: 'Payment',
  whenToCharge: 'When to charge',
  sale: 'Pay now',
  saleHint: 'The amount is charged at once.',
  auth: 'Reserve now, charge at dispatch',
  authHint: 'Your bank holds the amount; the shop takes it when your order ships.',
  email: 'Email',
  findCards: 'Find my saved cards',
  payOnBanksPage: 'Pay on the bank’s page',
  hostedNote: 'You type your card on the payment service’s own page, then come back here.',
  searchingCards: 'Looking for your saved cards…',
  noCards: 'No saved cards for this email.',
  foundCards: 'Saved cards found: {n}. Choose one below.',
  invalidEmail: 'Enter a valid email address.',
  payWith: 'Pay with',
  newCard: 'A new card',
  newCardHint: 'Type the card in the secure fields below.',
  cardEnding: '{brand} ending in {last4}',
  expires: 'Expires {mm}/{yy}',
  savedCvv: 'Security code of the {brand} ending in {last4}',
  cardDetails: 'Card details',
  cardNumber: 'Card number',
  expiry: 'Expiry date',
  cvv: 'Security code',
  cardName: 'Name on card',
  cardFormLoading: 'Loading the secure card fields…',
  cardFormFailed: 'The secure card fields did not load: {reason} Reload the page to try again.',
  saveCard: 'Save this card for next time',
  saveCardHint: 'Needs your email. The security code is never kept.',
  pay: 'Pay {amount}',
  paying: 'Paying…',
  paid: 'Paid',
  otpAsked: 'Your bank asks for a one-time password: enter it below.',
  redirecting: 'Taking you to your bank’s page to confirm the payment…',
  checkingPayment: 'We are checking your payment: it may have gone through. Do not pay again.',
  checkFields: 'Check your card details',
  correct: 'Correct these fields: {fields}.',
  notPaid: 'Not paid',
  serviceDown: 'The payment service did not answer. Check your connection and try again.',
  payFailed: 'The payment did not go through: {reason}',
  savedCardRefused: 'This payment has expired or was already sent: press pay again.',
  secureNote: 'Card details are typed into fields hosted by the payment service: this shop never sees them.',
  loadFailed: 'The shop could not load your order: {reason} Reload the page to try again.',
  network: 'The shop’s server did not answer. Check your connection and try again.',
  navSpa: 'The same checkout in React',
  navScript: 'The same checkout without a framework',
  navBackOffice: 'Back office',
  resultTitle: 'Payment result',
  resultChecking: 'Checking your payment…',
  resultApproved: 'Payment approved',
  resultCaptured: '{amount} has been charged to your card.',
  resultAuthorised: '{amount} is reserved on your card; it is charged when your order ships.',
  resultDeclined: 'Payment declined',
  resultDeclinedText: 'Your bank declined the payment: {text} (code {code}). No money was taken.',
  resultPending: 'Payment not finished',
  resultPendingText: 'The bank is still waiting for your one-time password.',
  resultUnknown: 'We could not check your payment',
  resultNoSession:
    'This page is where the bank sends you back after a payment, with the payment’s session in its address. This address has none.',
  resultNotFound: 'This payment was not started in this browser, so the shop does not show it here.',
  reference: 'Order {order} · payment {ref}',
  backToShop: 'Back to the shop',
  navAccount: 'Your saved cards',
  accountTitle: 'Your saved cards',
  signInTitle: 'Demo sign-in',
  signInNote:
    'A sandbox demo: pick a demo shopper, no password asked. A real shop verifies the email (a password, a sign-in link) before it shows anyone saved cards.',
  signInAs: 'Sign in as {name}',
  signedInAs: 'Signed in as {name}.',
  signedInCheckout: 'Signed in as {name}: you pay under your account’s email.',
  signedOut: 'You are signed out.',
  signOut: 'Sign out',
  savedCardsTitle: 'Saved cards',
  noSavedCards: 'No saved cards yet.',
  loadingCards: 'Loading your saved cards…',
  defaultCard: 'Default',
  makeDefault: 'Make default',
  makeDefaultLabel: 'Make {card} the default',
  remove: 'Remove',
  removeLabel: 'Remove {card}',
  removed: '{card} was removed.',
  madeDefault: '{card} is now your default card.',
  addCardTitle: 'Add a card without paying',
  addCardHint: 'Your bank checks the card with a zero amount: nothing is charged.',
  saveCardButton: 'Save the card',
  savingCard: 'Saving the card…',
  cardSaved: 'The card was saved. Nothing was charged.',
  cardNotSaved: 'Your bank declined the card: {text} (code {code}). It was not saved.',
  actionFailed: 'That did not work: {reason}',
} as const;

export type Key = keyof typeof en;

const ar: Record<Key, string> = {
  shop: 'محمصة مسقط للقهوة',
  sandbox: 'بيئة تجريبية: لا تُنقل أموال حقيقية',
  language: 'اللغة',
  checkoutTitle: 'إتمام الشراء',
  orderSummary: 'ملخص الطلب',
  quantity: 'الكمية {n}',
  subtotal: 'المجموع الفرعي',
  shipping: 'الشحن',
  total: 'الإجمالي',
  payment: 'الدفع',
  whenToCharge: 'موعد الخصم',
  sale: 'ادفع الآن',
  saleHint: 'يُخصم المبلغ فورًا.',
  auth: 'احجز المبلغ الآن ويُخصم عند الشحن',
  authHint: 'يحجز البنك المبلغ، ويخصمه المتجر عند شحن طلبك.',
  email: 'البريد الإلكتروني',
  findCards: 'اعرض بطاقاتي المحفوظة',
  payOnBanksPage: 'الدفع عبر صفحة البنك',
  hostedNote: 'تكتب بيانات بطاقتك في صفحة خدمة الدفع نفسها، ثم تعود إلى هنا.',
  searchingCards: 'جارٍ البحث عن بطاقاتك المحفوظة…',
  noCards: 'لا توجد بطاقات محفوظة لهذا البريد الإلكتروني.',
  foundCards: 'البطاقات المحفوظة: {n}. اختر إحداها أدناه.',
  invalidEmail: 'أدخل بريدًا إلكترونيًا صحيحًا.',
  payWith: 'ادفع باستخدام',
  newCard: 'بطاقة جديدة',
  newCardHint: 'اكتب بيانات البطاقة في الحقول الآمنة أدناه.',
  cardEnding: '{brand} المنتهية بـ {last4}',
  expires: 'تنتهي {mm}/{yy}',
  savedCvv: 'رمز الأمان لبطاقة {brand} المنتهية بـ {last4}',
  cardDetails: 'بيانات البطاقة',
  cardNumber: 'رقم البطاقة',
  expiry: 'تاريخ الانتهاء',
  cvv: 'رمز الأمان',
  cardName: 'الاسم على البطاقة',
  cardFormLoading: 'جارٍ تحميل حقول البطاقة الآمنة…',
  cardFormFailed: 'لم تُحمَّل حقول البطاقة الآمنة: {reason} أعد تحميل الصفحة للمحاولة مرة أخرى.',
  saveCard: 'احفظ هذه البطاقة للمرة القادمة',
  saveCardHint: 'يتطلب بريدك الإلكتروني. لا يُحفظ رمز الأمان أبدًا.',
  pay: 'ادفع {amount}',
  paying: 'جارٍ الدفع…',
  paid: 'تم الدفع',
  otpAsked: 'يطلب البنك كلمة مرور لمرة واحدة: أدخلها أدناه.',
  redirecting: 'جارٍ نقلك إلى صفحة البنك لتأكيد الدفع…',
  checkingPayment: 'نتحقق من حالة دفعتك: ربما تمّت. لا تدفع مرة أخرى.',
  checkFields: 'تحقّق من بيانات البطاقة',
  correct: 'صحّح هذه الحقول: {fields}.',
  notPaid: 'لم يتم الدفع',
  serviceDown: 'لم تستجب خدمة الدفع. تحقّق من اتصالك وحاول مرة أخرى.',
  payFailed: 'لم يتم الدفع: {reason}',
  savedCardRefused: 'انتهت صلاحية هذا الدفع أو سبق إرساله: اضغط على ادفع مرة أخرى.',
  secureNote: 'تُكتب بيانات البطاقة في حقول يستضيفها مزوّد الدفع، ولا يطّلع عليها هذا المتجر أبدًا.',
  loadFailed: 'تعذّر على المتجر تحميل طلبك: {reason} أعد تحميل الصفحة للمحاولة مرة أخرى.',
  network: 'لم يستجب خادم المتجر. تحقّق من اتصالك وحاول مرة أخرى.',
  navSpa: 'صفحة الدفع نفسها بتقنية React',
  navScript: 'صفحة الدفع نفسها دون إطار عمل',
  navBackOffice: 'لوحة الإدارة',
  resultTitle: 'نتيجة الدفع',
  resultChecking: 'جارٍ التحقق من الدفع…',
  resultApproved: 'تمت الموافقة على الدفع',
  resultCaptured: 'تم خصم {amount} من بطاقتك.',
  resultAuthorised: 'تم حجز {amount} على بطاقتك، ويُخصم عند شحن طلبك.',
  resultDeclined: 'تم رفض الدفع',
  resultDeclinedText: 'رفض البنك الدفع: {text} (الرمز {code}). لم يُخصم أي مبلغ.',
  resultPending: 'لم يكتمل الدفع',
  resultPendingText: 'ما زال البنك ينتظر كلمة المرور لمرة واحدة.',
  resultUnknown: 'تعذّر التحقق من الدفع',
  resultNoSession: 'يعيدك البنك إلى هذه الصفحة بعد الدفع، ويكون رقم جلسة الدفع في عنوانها. هذا العنوان لا يحتوي عليه.',
  resultNotFound: 'لم تبدأ هذه الدفعة في هذا المتصفح، لذلك لا يعرضها المتجر هنا.',
  reference: 'الطلب {order} · الدفعة {ref}',
  backToShop: 'العودة إلى المتجر',
  navAccount: 'بطاقاتك المحفوظة',
  accountTitle: 'بطاقاتك المحفوظة',
  signInTitle: 'تسجيل دخول تجريبي',
  signInNote:
    'عرض تجريبي: اختر متسوّقًا تجريبيًا، دون كلمة مرور. يتحقق المتجر الحقيقي من البريد الإلكتروني (كلمة مرور، رابط دخول) قبل أن يعرض لأحد بطاقات محفوظة.',
  signInAs: 'سجّل الدخول باسم {name}',
  signedInAs: 'مسجّل الدخول باسم {name}.',
  signedInCheckout: 'مسجّل الدخول باسم {name}: تدفع ببريد حسابك الإلكتروني.',
  signedOut: 'سجّلت الخروج.',
  signOut: 'تسجيل الخروج',
  savedCardsTitle: 'البطاقات المحفوظة',
  noSavedCards: 'لا توجد بطاقات محفوظة بعد.',
  loadingCards: 'جارٍ تحميل بطاقاتك المحفوظة…',
  defaultCard: 'الافتراضية',
  makeDefault: 'اجعلها الافتراضية',
  makeDefaultLabel: 'اجعلها الافتراضية: {card}',
  remove: 'إزالة',
  removeLabel: 'إزالة {card}',
  removed: 'أُزيلت {card}.',
  madeDefault: 'أصبحت {card} بطاقتك الافتراضية.',
  addCardTitle: 'أضف بطاقة دون دفع',
  addCardHint: 'يتحقق بنكك من البطاقة بمبلغ صفر: لا يُخصم شيء.',
  saveCardButton: 'احفظ البطاقة',
  savingCard: 'جارٍ حفظ البطاقة…',
  cardSaved: 'حُفظت البطاقة. لم يُخصم أي مبلغ.',
  cardNotSaved: 'رفض بنكك البطاقة: {text} (الرمز {code}). لم تُحفظ.',
  actionFailed: 'لم ينجح ذلك: {reason}',
};

const TABLE: Record<Locale, Record<Key, string>> = { en, ar };

/** The text of `key` in `locale`, with `{name}` replaced by `vars.name`. */
export function t(locale: Locale, key: Key, vars: Record<string, string | number> = {}): string {
  return TABLE[locale][key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

/** A count in the locale's digits (Arabic-Indic in Arabic, as the amounts are). */
export const count = (locale: Locale, n: number): string => new Intl.NumberFormat(locale === 'ar' ? 'ar-OM' : 'en').format(n);

export const isKey = (key: string | undefined): key is Key => key !== undefined && key in en;

const STORE = 'payframe-demo-locale';

/** `?lang=ar`, else the last choice on this browser, else the browser's language. */
export function initialLocale(): Locale {
  const asked = new URLSearchParams(location.search).get('lang');
  if (asked === 'en' || asked === 'ar') return asked;
  let kept: string | null = null;
  try {
    kept = localStorage.getItem(STORE);
  } catch {
    // Storage may be off (private mode, a policy): the choice is then not remembered.
  }
  if (kept === 'en' || kept === 'ar') return kept;
  return navigator.language.toLowerCase().startsWith('ar') ? 'ar' : 'en';
}

/** A Latin name or text inside an Arabic sentence, isolated (FSI…PDI) so that it reads in its own direction. */
export const isolated = (locale: Locale, text: string) => (locale === 'ar' ? `\u2068${text}\u2069` : text);

/**
 * The page in `locale`: its language and direction, every `data-text` and `data-label` element, the
 * language switch's pressed button, and its title (`title`, then the shop's name).
 */
export function translatePage(locale: Locale, title: Key): void {
  applyLocale(locale);
  for (const element of document.querySelectorAll<HTMLElement>('[data-text]')) {
    if (isKey(element.dataset['text'])) element.textContent = t(locale, element.dataset['text']);
  }
  for (const element of document.querySelectorAll<HTMLElement>('[data-label]')) {
    if (isKey(element.dataset['label'])) element.setAttribute('aria-label', t(locale, element.dataset['label']));
  }
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-locale]')) {
    button.setAttribute('aria-pressed', String(button.dataset['locale'] === locale));
  }
  document.title = `${t(locale, title)} · ${t(locale, 'shop')}`;
}

/** Sets the page's language and direction (Arabic reads right to left), and remembers the choice. */
export function applyLocale(locale: Locale): void {
  document.documentElement.lang = locale;
  document.documentElement.dir = locale === 'ar' ? 'rtl' : 'ltr';
  try {
    localStorage.setItem(STORE, locale);
  } catch {
    // Not remembered; the page still switches.
  }
}
