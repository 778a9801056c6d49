// Every payment flow on the script-tag checkout (`<script src="/payframe.umd.min.js">`): see demo-flows.ts.
import { paymentFlows } from './demo-flows';

paymentFlows('script');
