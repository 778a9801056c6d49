// The frame's built script, as the build (scripts/frame-bundle.mjs) hands it to the frame host.
declare module 'payframe:frame-bundle' {
  /** src/frame/main.ts minified: its file name (named by its content hash), text and Subresource Integrity. */
  export const frameScript: { name: string; code: string; integrity: string };
}
