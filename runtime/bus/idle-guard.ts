// A consumer created while its stream's leader moves (a NATS server died) can stay silent for
// ever; a partition activation replaying the log through it would then hold the partition, unowned,
// until the process restarts (seen in the nats-kill fault test). The guard stops the iteration when
// nothing arrives for `idleMs`, and the replay fails as retryable: the activation is given up and
// tried again on the next reconcile.
import { UnavailableError } from '../errors/index.js';

export interface IdleGuard {
  /** A message arrived: the silence starts again. */
  tick(): void;
  /** The iteration ended: throws UNAVAILABLE if it ended because nothing came. */
  end(): void;
}

export function idleGuard(iter: { stop(): void }, idleMs: number, what: string): IdleGuard {
  let idle = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      idle = true;
      iter.stop();
    }, idleMs);
  };
  arm();
  return {
    tick: arm,
    end() {
      clearTimeout(timer);
      if (idle) throw new UnavailableError(`${what}: nothing arrived for ${idleMs} ms`);
    },
  };
}

/**
 * A replay that stopped because its consumer said nothing was pending, having read fewer records
 * than the stream's leader counted for its filter just before, may have read a copy of the stream
 * that had not caught up: an ephemeral consumer may live on a replica still catching up after a
 * NATS server was cut from the others. Restoring from it would leave out live actors or queued
 * messages, so the replay fails as retryable (the activation is tried again on the next
 * reconcile) unless a count taken now explains the difference: a stale owner's background deletes
 * of superseded records may have removed some meanwhile.
 */
export async function assertReplayComplete(
  what: string,
  seen: number,
  counted: number,
  countNow: () => Promise<number>
): Promise<void> {
  if (seen >= counted) return;
  const now = await countNow();
  if (seen < now) {
    throw new UnavailableError(
      `${what}: read ${seen} of the ${now} records the stream's leader counts`
    );
  }
}
