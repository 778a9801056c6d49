// The entry of dist/frame/: the field frame page runs it once, when loaded.
import { start } from './start';

start();
