import { describe, expect, it } from 'vitest';
import { DeliverySlots } from './delivery-slots.js';

describe('DeliverySlots', () => {
  it('takes free slots at once, then queues takers and hands slots over in arrival order', async () => {
    const slots = new DeliverySlots(2);
    expect(slots.take()).toBeUndefined();
    expect(slots.take()).toBeUndefined();
    const order: string[] = [];
    const first = slots.take()!.then(() => order.push('first'));
    const second = slots.take()!.then(() => order.push('second'));
    expect(first).toBeInstanceOf(Promise);
    slots.give();
    await first;
    expect(order).toEqual(['first']);
    slots.give();
    await second;
    expect(order).toEqual(['first', 'second']);
    // The two handed-over slots are given back: both are free again.
    slots.give();
    slots.give();
    expect(slots.take()).toBeUndefined();
    expect(slots.take()).toBeUndefined();
    expect(slots.take()).toBeInstanceOf(Promise);
  });
});
