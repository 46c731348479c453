// The reference for the round-trip benchmark, in its own process: @a2a-js/sdk's in-memory
// express server with an echo executor (test/support/sdk-echo-server.ts).
// `node --import tsx test/bench/reference-server.ts <port>`
import { startSdkEchoServer } from '../support/sdk-echo-server.js';

const s = await startSdkEchoServer({ port: Number(process.argv[2] ?? 0) });
process.stdout.write(`listening ${new URL(s.url).port}\n`);
process.on('SIGTERM', () => void s.close().then(() => process.exit(0)));
