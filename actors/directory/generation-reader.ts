// The directory generation, read once for every request waiting on it.
/**
 * Reads of the current generation shared by the requests that wait for one: a read is sent on the
 * next turn of the event loop, so every request that joins it arrived before it was sent, and
 * under load one round trip answers many cache hits.
 */
export class GenerationReader {
  private pending: Promise<bigint> | undefined;

  constructor(private readonly read: () => Promise<string>) {}

  current(): Promise<bigint> {
    this.pending ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      // Later arrivals must not join a read already sent.
      this.pending = undefined;
      return this.read().then(BigInt);
    });
    return this.pending;
  }
}
