/** A first-in, first-out line whose `shift` is O(1): an array read from a moving start, compacted now and then. */
export class Fifo<T> {
  private items: T[] = [];
  private start = 0;

  get size(): number {
    return this.items.length - this.start;
  }

  push(item: T): void {
    this.items.push(item);
  }

  shift(): T | undefined {
    if (this.start === this.items.length) return undefined;
    const item = this.items[this.start++];
    // Once half of the array is read, the rest moves to the front: each item is copied O(1) times on average.
    if (this.start > 64 && this.start * 2 > this.items.length) {
      this.items = this.items.slice(this.start);
      this.start = 0;
    }
    return item;
  }

  values(): T[] {
    return this.items.slice(this.start);
  }
}
