// A small SVG bar chart (one or more series per day), drawn without a charting library: the
// dashboard's charts are a few dozen bars, and the numbers are also in a table beside them.
export interface Series {
  readonly name: string;
  readonly className: string;
  readonly values: readonly number[];
}

export function BarChart({
  title,
  labels,
  series,
}: {
  title: string;
  labels: readonly string[];
  series: readonly Series[];
}) {
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const W = 640;
  const H = 200;
  const pad = 28;
  const group = (W - pad) / Math.max(1, labels.length);
  const bar = Math.max(1, (group * 0.8) / series.length);
  const every = Math.ceil(labels.length / 10);
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${W} ${H + 20}`} role="img" aria-label={title}>
        <title>{title}</title>
        <line x1={pad} y1={H} x2={W} y2={H} class="axis" />
        <text x={0} y={12} class="tick">
          {max}
        </text>
        <text x={0} y={H} class="tick">
          0
        </text>
        {labels.map((label, i) => (
          <g key={label}>
            {series.map((s, j) => {
              const v = s.values[i] ?? 0;
              const h = (v / max) * (H - 16);
              return (
                <rect
                  key={s.name}
                  class={s.className}
                  x={pad + i * group + group * 0.1 + j * bar}
                  y={H - h}
                  width={bar}
                  height={h}
                >
                  <title>{`${label} ${s.name}: ${v}`}</title>
                </rect>
              );
            })}
            {i % every === 0 ? (
              <text x={pad + i * group} y={H + 16} class="tick">
                {label.slice(5)}
              </text>
            ) : null}
          </g>
        ))}
      </svg>
      <figcaption>
        {title}:{' '}
        {series.map((s) => (
          <span key={s.name} class={`legend ${s.className}`}>
            {s.name}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
