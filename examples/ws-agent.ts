// A WebSocket agent: echoes what it is told, streams "count", asks back when the message is empty.
//   HUB_URL=http://127.0.0.1:8080 AGENT_KEY=<the agent's API key> npx tsx examples/ws-agent.ts
import { WsAgent } from '@burrow/sdk';

const agent = new WsAgent({
  url: process.env.HUB_URL ?? 'http://127.0.0.1:8080',
  apiKey: process.env.AGENT_KEY ?? '',
  onMessage: ({ text, envelope }) => {
    if (text === 'count') {
      return (async function* () {
        for (const n of ['one', 'two', 'three']) {
          await new Promise((r) => setTimeout(r, 100)); // pretend to work
          yield n; // one artifact, streamed in three chunks
        }
      })();
    }
    if (!text.trim()) return { state: 'input-required', text: 'What should I echo?' };
    return `${envelope?.sender.agentId ?? 'someone'} said: ${text}`;
  },
  onEvent: (e) => {
    if (e.type === 'reconnect_scheduled') console.log(`[ws-agent] reconnecting in ${e.delayMs} ms`);
    else if (e.type === 'socket_error') console.log(`[ws-agent] ${e.error.message}`);
    else console.log(`[ws-agent] ${e.type}`);
  },
});

await agent.start();
console.log(`connected as ${agent.agentId}`);
process.once('SIGINT', () => void agent.close().then(() => process.exit(0)));
process.once('SIGTERM', () => void agent.close().then(() => process.exit(0)));
