/** The hosted payment page's words, in English and Arabic (right to left). */
export type HostedLang = 'en' | 'ar';

export interface HostedTexts {
  dir: 'ltr' | 'rtl';
  title: string;
  invoice: string;
  number: string;
  expiry: string;
  expiryHint: string;
  cvv: string;
  name: string;
  submit: string;
  check: string;
  retype: string;
  badNumber: string;
  badExpiry: string;
  badCvv: string;
  badName: string;
  otpTitle: string;
  otpIntro: string;
  otp: string;
  confirm: string;
  badOtp: string;
  expired: string;
  used: string;
  notFound: string;
  back: string;
  other: string;
  otherLang: HostedLang;
  footer: string;
}

export const HOSTED_TEXTS: Record<HostedLang, HostedTexts> = {
  en: {
    dir: 'ltr',
    title: 'Card payment',
    invoice: 'Invoice',
    number: 'Card number',
    expiry: 'Expiry date',
    expiryHint: 'MM / YY',
    cvv: 'Security code (CVV)',
    name: 'Name on card',
    submit: 'Pay',
    check: 'Check the details below.',
    retype: 'For your safety the card number and security code were not kept: type them again.',
    badNumber: 'Enter a valid card number.',
    badExpiry: 'Enter an expiry date that has not passed, as MM / YY.',
    badCvv: 'Enter the security code from the card.',
    badName: 'Enter the name on the card.',
    otpTitle: 'Confirm your payment',
    otpIntro: 'Your bank sent a one-time password to your phone.',
    otp: 'One-time password',
    confirm: 'Confirm',
    badOtp: 'The one-time password is 4 to 8 digits.',
    expired: 'This payment page has expired.',
    used: 'This payment is finished.',
    notFound: 'There is no payment page at this address.',
    back: 'Return to the shop',
    other: 'العربية',
    otherLang: 'ar',
    footer: "payframe sandbox: this page stands in for the card payment service's hosted payment page.",
  },
  ar: {
    dir: 'rtl',
    title: 'الدفع بالبطاقة',
    invoice: 'الفاتورة',
    number: 'رقم البطاقة',
    expiry: 'تاريخ الانتهاء',
    expiryHint: 'شهر / سنة',
    cvv: 'رمز الأمان (CVV)',
    name: 'الاسم على البطاقة',
    submit: 'ادفع',
    check: 'تحقّق من البيانات أدناه.',
    retype: 'حفاظًا على أمانك لم يُحتفظ برقم البطاقة ورمز الأمان: اكتبهما مرة أخرى.',
    badNumber: 'أدخل رقم بطاقة صحيحًا.',
    badExpiry: 'أدخل تاريخ انتهاء لم يمضِ، بالصيغة شهر / سنة.',
    badCvv: 'أدخل رمز الأمان المطبوع على البطاقة.',
    badName: 'أدخل الاسم كما هو على البطاقة.',
    otpTitle: 'أكّد الدفع',
    otpIntro: 'أرسل مصرفك كلمة مرور لمرة واحدة إلى هاتفك.',
    otp: 'كلمة المرور لمرة واحدة',
    confirm: 'تأكيد',
    badOtp: 'كلمة المرور لمرة واحدة من 4 إلى 8 أرقام.',
    expired: 'انتهت صلاحية صفحة الدفع هذه.',
    used: 'اكتملت عملية الدفع هذه.',
    notFound: 'لا توجد صفحة دفع على هذا العنوان.',
    back: 'العودة إلى المتجر',
    other: 'English',
    otherLang: 'en',
    footer: 'بيئة payframe التجريبية: هذه الصفحة تحلّ محلّ صفحة الدفع المستضافة لدى خدمة الدفع.',
  },
};

/** `?lang=` first, then the browser's first language: Arabic for `ar…`, English otherwise. */
export function langOf(query: URLSearchParams, acceptLanguage: string | undefined): HostedLang {
  const asked = query.get('lang');
  if (asked === 'ar' || asked === 'en') return asked;
  return /^\s*ar\b/i.test(acceptLanguage ?? '') ? 'ar' : 'en';
}
