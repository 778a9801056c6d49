// payframe/react with React 19 under <StrictMode>: server rendering, hydration and every trap (see react/suite.ts).
import { reactSuite } from './react/suite';

reactSuite('19');
