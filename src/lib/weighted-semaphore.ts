// A weighted semaphore: holders take a weight (bytes, places) and give it back; a taker waits (first come, first
// served) while the weight would go over the limit. One taker larger than the whole limit still gets it when
// nothing else is held, so an oversized job runs alone instead of waiting forever.

export class WeightedSemaphore {
  private used = 0;
  private readonly waiting: { bytes: number; resolve: () => void }[] = [];

  constructor(readonly limit: number) {}

  /** Bytes held now. */
  get held(): number {
    return this.used;
  }

  /** Resolves once `bytes` are taken; give them back with release(bytes). */
  async take(bytes: number): Promise<void> {
    if (bytes <= 0) return;
    if (this.waiting.length === 0 && this.fits(bytes)) {
      this.used += bytes;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push({ bytes, resolve }));
  }

  /** Takes `bytes` only if they fit now and nobody is waiting; false (nothing taken) otherwise. */
  tryTake(bytes: number): boolean {
    if (bytes <= 0) return true;
    if (this.waiting.length > 0 || !this.fits(bytes)) return false;
    this.used += bytes;
    return true;
  }

  release(bytes: number): void {
    if (bytes <= 0) return;
    this.used = Math.max(0, this.used - bytes);
    while (this.waiting.length > 0 && this.fits(this.waiting[0]!.bytes)) {
      const next = this.waiting.shift()!;
      this.used += next.bytes;
      next.resolve();
    }
  }

  private fits(bytes: number): boolean {
    return this.used === 0 || this.used + bytes <= this.limit;
  }
}
