// The hot metrics must read exactly as prom-client's own would after the same updates: the same
// /metrics text (series, buckets, sums, counts) and the same get(), whatever mix of calls made them.
import { describe, expect, it } from 'vitest';
import { Counter, Histogram, Registry } from 'prom-client';
import { HotCounter, HotHistogram } from './hot.js';

const buckets = [0.001, 0.01, 0.1, 1];

function pair() {
  const plain = new Registry();
  const hot = new Registry();
  for (const r of [plain, hot]) r.setDefaultLabels({ node: 'n1' });
  const counter = (C: typeof Counter, r: Registry) =>
    new C({ name: 'c_total', help: 'h', labelNames: ['method', 'status'], registers: [r] });
  const histogram = (H: typeof Histogram, r: Registry) =>
    new H({ name: 'h_seconds', help: 'h', labelNames: ['route'], buckets, registers: [r] });
  const bare = (H: typeof Histogram, r: Registry) =>
    new H({ name: 'b_seconds', help: 'h', buckets, registers: [r] });
  return {
    plain,
    hot,
    a: { c: counter(Counter, plain), h: histogram(Histogram, plain), b: bare(Histogram, plain) },
    b: {
      c: counter(HotCounter, hot),
      h: histogram(HotHistogram, hot),
      b: bare(HotHistogram, hot),
    },
  };
}

describe('HotCounter and HotHistogram', () => {
  it('read as prom-client reads after the same updates, between and after reads', async () => {
    const p = pair();
    const values = [0, 0.0005, 0.001, 0.002, 0.01, 0.5, 1, 3, 1e-9];
    for (let round = 0; round < 3; round++) {
      for (const side of [p.a, p.b]) {
        values.forEach((v, i) => {
          side.c.inc({ method: i % 2 ? 'POST' : 'GET', status: String(200 + (i % 3)) });
          side.c.inc({ method: 'GET', status: '200' }, v * 10);
          side.h.observe({ route: i % 2 ? '/a2a' : '/ws' }, v);
          side.b.observe(v);
          side.c.labels('PUT', '204').inc();
          side.h.labels('/x').observe(v);
        });
        side.c.inc(2);
        const end = side.h.startTimer({ route: '/t' });
        end();
      }
      const text = (await p.plain.metrics()).replace(
        /h_seconds_(sum|bucket|count)\{([^}]*)route="\/t"[^\n]*\n/g,
        ''
      );
      const hotText = (await p.hot.metrics()).replace(
        /h_seconds_(sum|bucket|count)\{([^}]*)route="\/t"[^\n]*\n/g,
        ''
      );
      expect(hotText).toBe(text);
      expect(await p.b.c.get()).toEqual(await p.a.c.get());
      expect(await p.b.b.get()).toEqual(await p.a.b.get());
    }
  });

  it('forgets a removed series and starts it again from zero', async () => {
    const p = pair();
    for (const side of [p.a, p.b]) {
      side.c.inc({ method: 'GET', status: '200' }, 5);
      side.h.observe({ route: '/a2a' }, 0.02);
      side.c.remove({ method: 'GET', status: '200' });
      side.h.remove('/a2a');
      side.c.inc({ method: 'GET', status: '200' });
      side.h.observe({ route: '/a2a' }, 0.3);
    }
    expect(await p.hot.metrics()).toBe(await p.plain.metrics());
    for (const side of [p.a, p.b]) {
      side.c.reset();
      side.h.reset();
    }
    expect(await p.hot.metrics()).toBe(await p.plain.metrics());
  });

  it('keeps a label left out apart from one whose value is the text "undefined"', async () => {
    const p = pair();
    for (const side of [p.a, p.b]) {
      side.c.inc({ method: 'GET' });
      side.c.inc({ method: 'GET', status: 'undefined' }, 2);
      side.h.observe({}, 0.5);
      side.h.observe({ route: 'undefined' }, 0.05);
    }
    expect(await p.hot.metrics()).toBe(await p.plain.metrics());
  });

  it('refuses what prom-client refuses', () => {
    const p = pair();
    expect(() => p.b.c.inc({ method: 'GET', status: '200' }, -1)).toThrow();
    expect(() => p.b.c.inc({ nope: 'x' } as never)).toThrow();
    expect(() => p.b.h.observe({ nope: 'x' } as never, 1)).toThrow();
    expect(() => p.b.h.observe({ route: '/a' }, Number.NaN)).toThrow();
  });
});
