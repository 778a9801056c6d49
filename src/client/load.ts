import { PayframeError } from '../shared/errors';

/**
 * A chunk of the ESM build loaded at first use (inline in the script-tag bundles). One that does not
 * load (a deploy in between, a network blip) is `network`: nothing was done, and the next call tries again.
 */
export const loadChunk = <T>(chunk: Promise<T>, what: string): Promise<T> =>
  chunk.catch((cause: unknown) => {
    throw new PayframeError('network', `${what}: its code did not load`, { cause });
  });
