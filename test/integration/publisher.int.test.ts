// The lean JetStream publisher behind every partition-log write, against a real nats-server:
// acks, the error codes fencing relies on, a subject no stream captures, duplicates, overdue acks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { connectBus, JetStreamPublisher, PublishError, type Bus } from '../../runtime/bus/index.js';
import { silentLogger as log } from '../../runtime/log/index.js';

let nats: NatsServerHandle;
let bus: Bus;

beforeAll(async () => {
  nats = await startNatsServer();
  bus = await connectBus({ servers: [nats.url], name: 'pub', replicas: 1, log });
  await bus.jsm.streams.add({
    name: 'PUBTEST',
    subjects: ['pubtest.>'],
    duplicate_window: 60_000_000_000,
  });
});

afterAll(async () => {
  await bus?.close();
  await nats?.close();
});

describe('JetStreamPublisher', () => {
  it('resolves with the stream and sequence, also when many are in flight', async () => {
    const acks = await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        bus.publish(`pubtest.${i % 7}`, new Uint8Array([i % 256]))
      )
    );
    expect(acks.every((a) => a.stream === 'PUBTEST')).toBe(true);
    expect(new Set(acks.map((a) => a.seq)).size).toBe(500);
  });

  it('rejects a wrong expected last sequence with err_code 10071 and stores nothing', async () => {
    const info = await bus.jsm.streams.info('PUBTEST');
    const last = info.state.last_seq;
    const err = await bus
      .publish('pubtest.x', new Uint8Array([1]), { expectLastSequence: last - 1 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PublishError);
    expect((err as PublishError).code).toBe(10071);
    expect((await bus.jsm.streams.info('PUBTEST')).state.last_seq).toBe(last);
    const ok = await bus.publish('pubtest.x', new Uint8Array([1]), { expectLastSequence: last });
    expect(ok.seq).toBe(last + 1);
  });

  it('reports a duplicate message id with the first sequence', async () => {
    const a = await bus.publish('pubtest.d', new Uint8Array([1]), { msgID: 'same-id' });
    const b = await bus.publish('pubtest.d', new Uint8Array([2]), { msgID: 'same-id' });
    expect(b).toEqual({ stream: 'PUBTEST', seq: a.seq, duplicate: true });
  });

  it('fails fast when no stream captures the subject', async () => {
    const err = await bus.publish('nostream.here', new Uint8Array([1])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PublishError);
    expect((err as PublishError).code).toBe(503);
  });

  it('fails a publish whose ack does not come in time, and ignores the late ack', async () => {
    // A plain subscriber on a non-stream subject never answers with an ack.
    const sub = bus.nc.subscribe('silent.subject', { callback: () => undefined });
    const pub = new JetStreamPublisher(bus.nc);
    // A publish with a long timeout alongside: when the short one has failed the long one must
    // still wait, so each publish's own timeout applies (no wall-clock bound needed).
    let longSettled = false;
    const long = pub
      .publish('silent.subject', new Uint8Array([2]), undefined, 60_000)
      .catch((e: unknown) => e)
      .finally(() => (longSettled = true));
    const err = await pub
      .publish('silent.subject', new Uint8Array([1]), undefined, 300)
      .catch((e: unknown) => e);
    expect((err as PublishError).code).toBe(408);
    expect(longSettled).toBe(false);
    pub.close();
    expect(((await long) as PublishError).code).toBe(0);
    sub.unsubscribe();
  });
});
