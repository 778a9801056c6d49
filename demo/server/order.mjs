// The shop's own order. The amount of a payment always comes from here, never from the browser.
import { fromMinor, toMinor } from './money.mjs';

/**
 * @typedef {{ sku: string, name: { en: string, ar: string }, quantity: number, price: string }} OrderItem
 * @typedef {{ shop: { en: string, ar: string }, currency: string, items: OrderItem[], shipping: string }} Order
 */

/** @type {Order} */
export const DEFAULT_ORDER = {
  shop: { en: 'Muscat Coffee Roasters', ar: 'محمصة مسقط للقهوة' },
  currency: 'OMR',
  items: [
    {
      sku: 'BEANS-250',
      name: { en: 'Single-origin coffee beans, 250 g', ar: 'حبوب قهوة أحادية المصدر، ٢٥٠ غ' },
      quantity: 2,
      price: '4.500',
    },
    { sku: 'BLEND-250', name: { en: 'Cardamom coffee blend, 250 g', ar: 'خلطة قهوة بالهيل، ٢٥٠ غ' }, quantity: 1, price: '3.750' },
  ],
  shipping: '1.000',
};

/** The order with its line totals, subtotal and total, as the checkout page shows it. @param {Order} order */
export function priced(order) {
  const { currency } = order;
  const lines = order.items.map((item) => ({ ...item, total: fromMinor(toMinor(item.price, currency) * item.quantity, currency) }));
  const subtotalMinor = lines.reduce((sum, line) => sum + toMinor(line.total, currency), 0);
  return {
    shop: order.shop,
    currency,
    items: lines,
    subtotal: fromMinor(subtotalMinor, currency),
    shipping: order.shipping,
    total: fromMinor(subtotalMinor + toMinor(order.shipping, currency), currency),
  };
}

/** The order's part of a payment request of payframe/server. @param {Order} order @param {string} orderId */
export function paymentOrder(order, orderId) {
  const { currency, subtotal, shipping, total } = priced(order);
  return {
    amount: { currency, total, details: { subtotal, shipping } },
    items: order.items.map((item) => ({
      sku: item.sku,
      name: item.name.en,
      quantity: String(item.quantity),
      price: item.price,
      currency,
      tangible: /** @type {const} */ ('true'),
    })),
    description: `${order.shop.en} order ${orderId}`,
    invoiceNumber: orderId,
  };
}
