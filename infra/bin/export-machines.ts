// `npm run machines:export [dir]`: writes every machine the hub runs (the actors' and the official
// agents' worker) to <dir>/<id>.json (machine.toJSON()), <id>.mmd (Mermaid) and <id>.dot (Graphviz)
// (default machines/), so state graphs can be reviewed, drawn and diffed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { allMachines } from '../../actors/index.js';
import { agentWorkerMachine } from '../../agents/index.js';
import { MachineRegistry } from '../../runtime/inspect/index.js';

const dir = resolve(process.argv[2] ?? 'machines');
const registry = new MachineRegistry();
for (const m of [...allMachines, agentWorkerMachine]) registry.register(m);
mkdirSync(dir, { recursive: true });
for (const id of registry.ids()) {
  const files: Array<[string, string]> = [
    [`${id}.json`, `${JSON.stringify(registry.definition(id), null, 2)}\n`],
    [`${id}.mmd`, registry.graph(id, 'mermaid') ?? ''],
    [`${id}.dot`, registry.graph(id, 'dot') ?? ''],
  ];
  for (const [name, text] of files) {
    writeFileSync(join(dir, name), text);
    process.stdout.write(`${join(dir, name)}\n`);
  }
}
