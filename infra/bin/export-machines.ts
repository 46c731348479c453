// `npm run machines:export [dir]`: writes every machine's definition (machine.toJSON()) to
// <dir>/<id>.json (default machines/), so state graphs can be reviewed and diffed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { allMachines } from '../../actors/index.js';
import { MachineRegistry } from '../../runtime/inspect/index.js';

const dir = resolve(process.argv[2] ?? 'machines');
const registry = new MachineRegistry();
for (const m of allMachines) registry.register(m);
mkdirSync(dir, { recursive: true });
for (const id of registry.ids()) {
  const file = join(dir, `${id}.json`);
  writeFileSync(file, `${JSON.stringify(registry.definition(id), null, 2)}\n`);
  process.stdout.write(`${file}\n`);
}
