// payframe/react with React 18 (the aliased react-18 and react-dom-18) under <StrictMode>: the same suite as React 19's.
import { reactSuite } from './react/suite';

reactSuite('18');
