// The shapes of the shop server's answers (demo/server), as the pages read them.

export interface Money {
  currency: string;
  total: string;
}

export interface Order {
  shop: { en: string; ar: string };
  currency: string;
  items: { sku: string; name: { en: string; ar: string }; quantity: number; price: string; total: string }[];
  subtotal: string;
  shipping: string;
  total: string;
}

/** GET /api/checkout */
export interface CheckoutInfo {
  order: Order;
  gateway: { merchantId: string; baseUrl: string };
}

/** GET /api/saved-cards?email= */
export interface SavedCard {
  id: string;
  brand: string;
  bin: string;
  last4: string;
  expireMonth: number;
  expireYear: number;
  /** A signed-in shopper's cards only: the vault's default card, listed first. */
  isDefault?: boolean;
}

/** GET /api/account: the signed-in demo shopper, if any. */
export interface Account {
  id: string;
  name: string;
  email: string;
}

/** GET /api/account/cards (`handlers.savedCards()`): what the payer's page may show of a card. */
export interface SavedCardView {
  id: string;
  /** A brand id (`visa`, `american-express`). */
  brand: string;
  last4: string;
  expireMonth: number;
  expireYear: number;
  isDefault: boolean;
}

/** GET /api/session/:id */
export interface PaymentOutcome {
  status: 'approved' | 'pending' | 'declined';
  state: string;
  code: string;
  text?: string;
  referenceId: string;
  orderId?: string;
  amount?: Money;
}

export interface Action {
  kind: 'capture' | 'void' | 'refund';
  id: string;
  total: string;
  at: string;
  /** The acquirer deferred it (pending) or refused it after it was accepted (denied). */
  status?: 'pending' | 'denied';
}

/** A payment of this run, as the back office lists it. */
export interface PaymentRow {
  /** null while the order is being checked: its payment's answer was lost, and no notification has come yet. */
  referenceId: string | null;
  checking: boolean;
  orderId: string;
  kind: 'checkout' | 'merchant-initiated';
  intent: 'auth' | 'sale';
  state: string | null;
  result: { code: string; text: string } | null;
  amount: Money;
  captured: string;
  refunded: string;
  card: { type: string; bin: string; last4: string } | null;
  email: string | null;
  createdAt: string;
  savedCard: string | null;
  previousPaymentId: string | null;
  history: Action[];
  error?: string;
}

/** GET /api/payments/:id and the answer of every action. */
export interface PaymentDetail {
  payment: PaymentRow | null;
  record: Record<string, unknown>;
  message?: string;
}

export interface PayerView {
  payer: { id: string; email: string; name: string };
  cards: {
    id: string;
    type: string;
    bin: string;
    last4: string;
    expireMonth: number | null;
    expireYear: number | null;
    isDefault: boolean;
    savedWithConsent: boolean;
  }[];
}

/** GET /api/notifications: each notification the service sent, and the order it settled. */
export interface Notice {
  id: string;
  kind: string;
  orderId: string | null;
  referenceId: string;
  state: string;
  at: string;
}
