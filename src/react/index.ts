// The `payframe/react` entry: the hosted card form and pending payments as React components and hooks
// (React 18.2+ and 19). Importing it touches no window or document: a server renders the boxes, and the
// frames are mounted by effects in the browser. No 'use client' directive: a `Client` cannot cross from a
// Server Component to a client one, so the merchant's checkout is a client component that imports this.
export {
  CardCvv,
  CardExpiry,
  type CardFieldProps,
  CardFields,
  type CardFieldsHandlers,
  type CardFieldsProps,
  type CardFormValue,
  CardName,
  CardNumber,
  useCardForm,
} from './card-fields';
export { type PendingPaymentOptions, type PendingPaymentState, type PendingPaymentValue, usePendingPayment } from './pending';
