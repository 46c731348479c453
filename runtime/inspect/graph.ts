// A machine as a picture: its states and transitions (xstate/graph's directed graph) written as
// Mermaid (GitHub and most Markdown viewers draw it) or Graphviz DOT (`dot -Tsvg`).
import type { AnyStateMachine } from 'xstate';
import { toDirectedGraph, type DirectedGraphNode } from 'xstate/graph';

export type GraphFormat = 'mermaid' | 'dot';

interface Edge {
  source: string;
  target: string;
  label: string;
}

function walk(node: DirectedGraphNode, nodes: DirectedGraphNode[], edges: Edge[]): void {
  nodes.push(node);
  for (const e of node.edges) {
    const guard = e.transition.guard;
    const named =
      typeof guard === 'string' ? guard : (guard as { type?: string } | undefined)?.type;
    const label = eventLabel(e.label.text) + (named ? ` [${named}]` : '');
    edges.push({ source: e.source.id, target: e.target.id, label });
  }
  for (const c of node.children) walk(c, nodes, edges);
}

/** XState's generated event names, shortened to what a reader needs. */
function eventLabel(type: string): string {
  if (type.startsWith('xstate.done.actor.')) return 'done';
  if (type.startsWith('xstate.error.actor.')) return 'error';
  const after = /^xstate\.after\.([^.]+)\./.exec(type);
  return after ? `after ${after[1]}` : type;
}

/** Node ids are dotted paths ("task.working"): safe identifiers for both formats. */
const safeId = (id: string) => id.replace(/[^A-Za-z0-9_]/g, '_');
const quoted = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

function mermaid(root: DirectedGraphNode, edges: Edge[]): string {
  const lines = ['stateDiagram-v2'];
  const write = (n: DirectedGraphNode, depth: number) => {
    const pad = '  '.repeat(depth);
    const name = safeId(n.id);
    const key = String(n.stateNode.key);
    if (n.children.length > 0 && n !== root) {
      lines.push(`${pad}state ${quoted(key)} as ${name} {`);
      const initial = n.stateNode.initial?.target[0];
      if (initial) lines.push(`${pad}  [*] --> ${safeId(initial.id)}`);
      for (const c of n.children) write(c, depth + 1);
      lines.push(`${pad}}`);
    } else if (n !== root) {
      lines.push(`${pad}state ${quoted(key)} as ${name}`);
      if (n.stateNode.type === 'final') lines.push(`${pad}${name} --> [*]`);
    }
  };
  const initial = root.stateNode.initial?.target[0];
  if (initial) lines.push(`  [*] --> ${safeId(initial.id)}`);
  for (const c of root.children) write(c, 1);
  // Transitions of the machine itself apply in every state: a note on the initial state says so.
  const anywhere = edges.filter((e) => e.source === root.id).map((e) => e.label);
  for (const e of edges) {
    if (e.source === root.id) continue;
    lines.push(
      `  ${safeId(e.source)} --> ${safeId(e.target)} : ${e.label.replace(/[:;\n]/g, ' ')}`
    );
  }
  if (anywhere.length > 0 && initial) {
    lines.push(
      `  note right of ${safeId(initial.id)} : in any state ${[...new Set(anywhere)].join(', ')}`
    );
  }
  return `${lines.join('\n')}\n`;
}

function dot(root: DirectedGraphNode, edges: Edge[]): string {
  const lines = [
    `digraph ${quoted(root.id)} {`,
    '  rankdir=LR;',
    '  node [shape=box, style=rounded];',
  ];
  let cluster = 0;
  const write = (n: DirectedGraphNode, depth: number) => {
    const pad = '  '.repeat(depth);
    if (n.children.length > 0) {
      lines.push(
        `${pad}subgraph cluster_${cluster++} {`,
        `${pad}  label=${quoted(String(n.stateNode.key))};`
      );
      for (const c of n.children) write(c, depth + 1);
      lines.push(`${pad}}`);
    } else {
      const shape = n.stateNode.type === 'final' ? ', peripheries=2' : '';
      lines.push(`${pad}${quoted(n.id)} [label=${quoted(String(n.stateNode.key))}${shape}];`);
    }
  };
  for (const c of root.children) write(c, 1);
  const initial = root.stateNode.initial?.target[0];
  if (initial) {
    lines.push('  __start [shape=point];', `  __start -> ${quoted(initial.id)};`);
  }
  for (const e of edges) {
    lines.push(`  ${quoted(e.source)} -> ${quoted(e.target)} [label=${quoted(e.label)}];`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/** The machine's states and transitions in the given format. */
export function machineGraph(machine: AnyStateMachine, format: GraphFormat): string {
  const root = toDirectedGraph(machine);
  const nodes: DirectedGraphNode[] = [];
  const edges: Edge[] = [];
  walk(root, nodes, edges);
  return format === 'dot' ? dot(root, edges) : mermaid(root, edges);
}
