// Every payment flow on the React checkout in <StrictMode> (`import { mountFields } from 'payframe'`): see demo-flows.ts.
import { paymentFlows } from './demo-flows';

paymentFlows('react');
