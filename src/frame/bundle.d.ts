// `payframe/frame-bundle`, as the build makes it (scripts/frame-bundle.mjs, dist/frame-bundle.mjs): declared
// here for the type checker, which reads the sources before anything is built.
declare module 'payframe/frame-bundle' {
  /** The frame's built script: its text, and its hash as `script-src` names it. */
  export const frameScript: { code: string; hash: string };
}
