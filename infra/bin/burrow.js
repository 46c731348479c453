#!/usr/bin/env node
// The `burrow` npm bin: runs the compiled CLI (dist/) when there is one, else the TypeScript source
// through tsx, so `npx burrow …` works in a fresh clone without a build.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = new URL('../../dist/infra/bin/burrow.js', import.meta.url);

if (existsSync(fileURLToPath(compiled))) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('./burrow.ts', import.meta.url).href);
}
