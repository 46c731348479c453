// Counters and histograms updated on every request. prom-client spends 1.5–2 µs on a labelled
// inc() or observe() (it validates and hashes the label object each time, and a histogram builds
// a closure per observation), and a blocking round trip makes about eight of them: 3–4% of the
// hub's CPU per round trip (issue 19). These subclasses keep prom-client as the exporter and
// registry but count in plain cells found by the label values; a cell's series is created (and
// its labels validated) by prom-client the first time it is seen, and what the cells hold joins
// prom-client's figures whenever the metric is read (/metrics, get()), so every reading is exact.
import {
  Counter,
  Histogram,
  type CounterConfiguration,
  type HistogramConfiguration,
  type LabelValues,
  type MetricObjectWithValues,
  type MetricValue,
  type MetricValueWithName,
} from 'prom-client';

type Labels<T extends string> = LabelValues<T>;

/** The cell key of a label object: its declared labels' values, in declaration order. */
function keyOf(names: readonly string[], labels: Record<string, unknown>): string {
  let key = '';
  for (let i = 0; i < names.length; i++) {
    const v = labels[names[i]!] as string | number | undefined;
    // A label left out is another series than one whose value is the text "undefined".
    key += v === undefined ? '\u0002' : `${String(v)}\u0001`;
  }
  return key;
}

/** The label object of remove()'s arguments: an object, or the values in declaration order. */
function removed(names: readonly string[], args: unknown[]): Record<string, unknown> {
  if (typeof args[0] === 'object' && args[0] !== null) return args[0] as Record<string, unknown>;
  const labels: Record<string, unknown> = {};
  names.forEach((n, i) => (labels[n] = args[i]));
  return labels;
}

interface CounterCell<T extends string> {
  readonly labels: Labels<T>;
  n: number;
}

export class HotCounter<T extends string = string> extends Counter<T> {
  private readonly cells = new Map<string, CounterCell<T>>();
  /** prom-client's own inc, which the cells' counts are handed to. */
  private readonly plainInc: Counter<T>['inc'];
  private readonly names: readonly string[];

  constructor(config: CounterConfiguration<T>) {
    super(config);
    this.names = config.labelNames ?? [];
    // prom-client sets inc on the instance (without exemplars), so the override goes there too.
    const plain = this.inc.bind(this);
    this.plainInc = plain;
    this.inc = ((labels?: Labels<T> | number, value?: number): void => {
      if (typeof labels !== 'object' || labels === null) return plain(labels as number);
      const v = value ?? 1;
      // prom-client's own errors for a bad value.
      if (!(v >= 0) || !Number.isFinite(v)) return plain(labels, v);
      const key = keyOf(this.names, labels);
      let cell = this.cells.get(key);
      if (cell === undefined) {
        // Validates the labels (throws as prom-client does) and creates the series at 0.
        plain(labels, 0);
        cell = { labels: { ...labels }, n: 0 };
        this.cells.set(key, cell);
      }
      cell.n += v;
    }) as Counter<T>['inc'];
  }

  /** Hands the cells' counts to prom-client; every read goes through here first. */
  private settle(): void {
    for (const cell of this.cells.values()) {
      if (cell.n === 0) continue;
      this.plainInc(cell.labels, cell.n);
      cell.n = 0;
    }
  }

  override async get(): Promise<MetricObjectWithValues<MetricValue<T>>> {
    this.settle();
    return super.get();
  }

  override reset(): void {
    // prom-client's constructor calls reset() before this class's fields exist.
    (this.cells as Map<string, unknown> | undefined)?.clear();
    super.reset();
  }

  override remove(...values: string[]): void;
  override remove(labels: Labels<T>): void;
  override remove(...args: unknown[]): void {
    this.cells.delete(keyOf(this.names, removed(this.names, args)));
    // Passed on as given: prom-client takes the label object or the values alike.
    super.remove(...(args as string[]));
  }
}

interface HistogramCell<T extends string> {
  readonly labels: Labels<T>;
  /** Observations per bucket (not cumulative), the last one above every bound (+Inf). */
  readonly counts: number[];
  sum: number;
  count: number;
}

type Exported<T extends string> = MetricObjectWithValues<MetricValueWithName<T>>;

export class HotHistogram<T extends string = string> extends Histogram<T> {
  private readonly cells = new Map<string, HistogramCell<T>>();
  private readonly names: readonly string[];
  private readonly bounds: readonly number[];

  constructor(config: HistogramConfiguration<T>) {
    super(config);
    this.names = config.labelNames ?? [];
    this.bounds = [...(config.buckets ?? [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10])]
      .filter((b) => Number.isFinite(b))
      .sort((a, b) => a - b);
    const plain = this.observe.bind(this);
    this.observe = ((labels: Labels<T> | number, value?: number): void => {
      let l: Labels<T>;
      let v: number;
      if (typeof labels === 'object' && labels !== null) {
        l = labels;
        v = value as number;
      } else {
        l = {};
        v = labels;
      }
      if (!Number.isFinite(v)) return plain(l, v);
      const key = keyOf(this.names, l);
      let cell = this.cells.get(key);
      if (cell === undefined) {
        // A label it does not declare: prom-client's own error (zero() does not check).
        for (const k of Object.keys(l)) if (!this.names.includes(k)) return plain(l, v);
        this.zero(l);
        cell = {
          labels: { ...l },
          counts: new Array<number>(this.bounds.length + 1).fill(0),
          sum: 0,
          count: 0,
        };
        this.cells.set(key, cell);
      }
      const b = this.bounds;
      let i = 0;
      while (i < b.length && v > b[i]!) i++;
      cell.counts[i]! += 1;
      cell.sum += v;
      cell.count += 1;
    }) as Histogram<T>['observe'];
  }

  override zero(labels: Labels<T>): void {
    // Called by prom-client readers too: a series zeroed again keeps what its cell holds.
    super.zero(labels);
    const cell = this.cells.get(keyOf(this.names, labels));
    if (cell) {
      cell.counts.fill(0);
      cell.sum = 0;
      cell.count = 0;
    }
  }

  /** prom-client's figures with the cells' added, series by series (both reads). */
  private withCells(data: Exported<T>): Exported<T> {
    if (this.cells.size === 0) return data;
    for (const v of data.values) {
      const all = { ...(v as { sharedLabels?: object }).sharedLabels, ...v.labels } as Record<
        string,
        unknown
      >;
      const cell = this.cells.get(keyOf(this.names, all));
      if (cell === undefined || cell.count === 0) continue;
      const name = v.metricName ?? '';
      if (name.endsWith('_sum')) v.value += cell.sum;
      else if (name.endsWith('_count')) v.value += cell.count;
      else if (name.endsWith('_bucket')) v.value += this.cumulative(cell, all['le']);
    }
    return data;
  }

  private cumulative(cell: HistogramCell<T>, le: unknown): number {
    if (le === '+Inf') return cell.count;
    let n = 0;
    for (let i = 0; i < this.bounds.length && this.bounds[i]! <= Number(le); i++) {
      n += cell.counts[i]!;
    }
    return n;
  }

  /**
   * What the registry reads for /metrics (prom-client's registry.js), untyped in its .d.ts; get()
   * reads it too, so the cells are added here alone.
   */
  async getForPromString(): Promise<Exported<T>> {
    const proto = Histogram.prototype as unknown as { getForPromString(): Promise<unknown> };
    return this.withCells((await proto.getForPromString.call(this)) as Exported<T>);
  }

  override reset(): void {
    // prom-client's constructor calls reset() before this class's fields exist.
    (this.cells as Map<string, unknown> | undefined)?.clear();
    super.reset();
  }

  override remove(...values: string[]): void;
  override remove(labels: Labels<T>): void;
  override remove(...args: unknown[]): void {
    this.cells.delete(keyOf(this.names, removed(this.names, args)));
    // Passed on as given: prom-client takes the label object or the values alike.
    super.remove(...(args as string[]));
  }
}
