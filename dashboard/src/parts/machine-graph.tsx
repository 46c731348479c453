// A state machine drawn from GET /debug/machines/:id/graph (Mermaid stateDiagram text): states and
// transitions are read from the text, laid out with dagre, and drawn as SVG. Parallel transitions
// between the same two states share one arrow with all their events.
import dagre, { type GraphLabel } from '@dagrejs/dagre';

interface Parsed {
  nodes: Map<string, string>;
  edges: Map<string, { from: string; to: string; labels: string[] }>;
}

interface NodeBox {
  label: string;
  width: number;
  height: number;
  x?: number;
  y?: number;
}
interface EdgeBox {
  label: string;
  width: number;
  height: number;
  x?: number;
  y?: number;
  points?: Array<{ x: number; y: number }>;
}

const START = '__start';
const END = '__end';

export function parseMermaid(text: string): Parsed {
  const nodes = new Map<string, string>();
  const edges = new Map<string, { from: string; to: string; labels: string[] }>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const state = /^state "((?:[^"\\]|\\.)*)" as (\w+)/.exec(line);
    if (state?.[1] !== undefined && state[2]) {
      nodes.set(state[2], state[1]);
      continue;
    }
    const edge = /^(\[\*\]|\w+) --> (\[\*\]|\w+)(?: : (.*))?$/.exec(line);
    if (edge?.[1] && edge[2]) {
      const from = edge[1] === '[*]' ? START : edge[1];
      const to = edge[2] === '[*]' ? END : edge[2];
      const key = `${from}>${to}`;
      const e = edges.get(key) ?? { from, to, labels: [] };
      if (edge[3]) e.labels.push(edge[3]);
      edges.set(key, e);
    }
  }
  return { nodes, edges };
}

export function MachineGraph({ text, title }: { text: string; title: string }) {
  const { nodes, edges } = parseMermaid(text);
  const g = new dagre.graphlib.Graph<GraphLabel, NodeBox, EdgeBox>({ multigraph: false });
  g.setGraph({ rankdir: 'TB', nodesep: 40, ranksep: 60, marginx: 10, marginy: 10 });
  g.setDefaultEdgeLabel(() => ({ label: '', width: 0, height: 0 }));
  for (const [id, label] of nodes)
    g.setNode(id, { label, width: label.length * 8 + 24, height: 32 });
  const used = [...edges.values()].flatMap((e) => [e.from, e.to]);
  if (used.includes(START)) g.setNode(START, { label: '', width: 14, height: 14 });
  if (used.includes(END)) g.setNode(END, { label: '', width: 18, height: 18 });
  for (const e of edges.values()) {
    const label = e.labels.join(', ');
    g.setEdge(e.from, e.to, {
      label,
      width: Math.min(label.length, 40) * 6,
      height: 14 * Math.ceil(label.length / 40 || 0),
    });
  }
  dagre.layout(g);
  const size = g.graph();
  const width = (size.width ?? 400) + 20;
  const height = (size.height ?? 300) + 20;
  return (
    <figure class="graph">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`State machine ${title}`}>
        <title>{`State machine ${title}`}</title>
        <defs>
          <marker
            id="arrow"
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto"
          >
            <path d="M0,0 L10,5 L0,10 z" class="arrowhead" />
          </marker>
        </defs>
        {g.edges().map((ref) => {
          const e = g.edge(ref);
          const pts = (e.points ?? []).map((p) => `${p.x},${p.y}`).join(' ');
          const label = e.label;
          return (
            <g key={`${ref.v}>${ref.w}`} class="edge">
              <polyline points={pts} marker-end="url(#arrow)" />
              {label && e.x !== undefined && e.y !== undefined ? (
                <text x={e.x} y={e.y} text-anchor="middle">
                  {label.length > 60 ? `${label.slice(0, 57)}…` : label}
                  <title>{label}</title>
                </text>
              ) : null}
            </g>
          );
        })}
        {g.nodes().map((id) => {
          const box = g.node(id);
          const n = { ...box, x: box.x ?? 0, y: box.y ?? 0 };
          if (id === START) return <circle key={id} cx={n.x} cy={n.y} r={7} class="start" />;
          if (id === END)
            return (
              <g key={id}>
                <circle cx={n.x} cy={n.y} r={9} class="end" />
                <circle cx={n.x} cy={n.y} r={5} class="start" />
              </g>
            );
          return (
            <g key={id} class="state">
              <rect
                x={n.x - n.width / 2}
                y={n.y - n.height / 2}
                width={n.width}
                height={n.height}
                rx={8}
              />
              <text x={n.x} y={n.y + 4} text-anchor="middle">
                {nodes.get(id)}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
