/**
 * A merchant's option as plain JSON data: a copy, so that no function, prototype or getter of it reaches
 * the frames or the wire, and no later change of the merchant's object changes what was checked; or the
 * error `refused` makes when it cannot be one (a circle, a BigInt).
 */
export function plainCopy<T>(value: T, refused: () => Error): T {
  try {
    return JSON.parse(JSON.stringify(value));
  } catch {
    throw refused();
  }
}
