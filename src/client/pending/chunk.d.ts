// `virtual:payframe-pending-chunk`, as the build makes it (scripts/pending-chunk.mjs) for the script-tag bundle:
// declared here for the type checker, which reads the sources before anything is built.
declare module 'virtual:payframe-pending-chunk' {
  /** The pending flow's file, relative to the bundle's (with its version in the query), and its `sha384-…`. */
  export const chunk: { file: string; integrity: string };
  /** What the chunk takes from the bundle, by the name its `require` asks for. */
  export const shared: Record<string, object>;
}
