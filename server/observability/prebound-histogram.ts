import { Histogram, type HistogramConfiguration, type LabelValues } from 'prom-client';

/** One label set's observations: a count per bucket (the last one +Inf) and their sum. */
export class HistogramSeries {
  readonly #upperBounds: readonly number[];
  readonly counts: Float64Array;
  sum = 0;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    upperBounds: readonly number[],
  ) {
    this.#upperBounds = upperBounds;
    this.counts = new Float64Array(upperBounds.length + 1);
  }

  observe(seconds: number): void {
    const bounds = this.#upperBounds;
    let bucket = 0;
    while (bucket < bounds.length && seconds > bounds[bucket]!) bucket += 1;
    this.counts[bucket]! += 1;
    this.sum += seconds;
  }
}

/**
 * A prom-client histogram whose label sets are bound once, up front or on first use: observing a
 * series adds to a bucket and a sum, where prom-client's own children copy, check and hash their
 * labels on every observation. Scraped like any other histogram of the registry.
 */
export class PreboundHistogram<T extends string> extends Histogram<T> {
  readonly #name: string;
  readonly #help: string;
  readonly #upperBounds: readonly number[];
  readonly #series: HistogramSeries[] = [];

  constructor(configuration: HistogramConfiguration<T> & { buckets: readonly number[] }) {
    super({ ...configuration, buckets: [...configuration.buckets] });
    this.#name = configuration.name;
    this.#help = configuration.help;
    this.#upperBounds = [...configuration.buckets].sort((a, b) => a - b);
  }

  /** A new series of these labels; each label set is bound once and its series kept by the caller. */
  series(labels: LabelValues<T> = {}): HistogramSeries {
    const series = new HistogramSeries(labels as Record<string, string>, this.#upperBounds);
    this.#series.push(series);
    return series;
  }

  /**
   * What the registry formats the exposition from (prom-client's own histograms have it too, and
   * build `get()` on it), shaped as theirs: each value's own labels, with the series' shared.
   */
  getForPromString() {
    const values = this.#series.flatMap(({ labels, counts, sum }) => {
      let cumulative = 0;
      const buckets = [...counts].map((count, bucket) => {
        cumulative += count;
        return { metricName: `${this.#name}_bucket`, labels: { le: this.#upperBounds[bucket] ?? '+Inf' }, sharedLabels: labels, value: cumulative };
      });
      return [...buckets, { metricName: `${this.#name}_sum`, labels: {}, sharedLabels: labels, value: sum }, { metricName: `${this.#name}_count`, labels: {}, sharedLabels: labels, value: cumulative }];
    });
    return Promise.resolve({ name: this.#name, help: this.#help, type: 'histogram', aggregator: 'sum', values });
  }
}
