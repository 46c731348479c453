// An HTTP (webhook) agent on node:http: register its URL with the hub, which POSTs messages to it.
//   PORT=9090 HUB_URL=http://127.0.0.1:8080 WEBHOOK_SECRET=<secret from registration> \
//     npx tsx examples/http-agent.ts
import { createServer } from 'node:http';
import { httpAgentHandler } from '@burrow/sdk';

const port = Number(process.env.PORT ?? 9090);
const handler = httpAgentHandler({
  card: {
    name: 'Shouter',
    description: 'Answers every message in capitals.',
    url: `http://127.0.0.1:${port}/a2a`,
    version: '1.0.0',
    capabilities: { streaming: false, pushNotifications: false },
    skills: [
      { id: 'shout', name: 'Shout', description: 'Repeats text in capitals', tags: ['text'] },
    ],
  },
  ...(process.env.WEBHOOK_SECRET ? { webhookSecret: process.env.WEBHOOK_SECRET } : {}),
  ...(process.env.HUB_URL ? { hubUrl: process.env.HUB_URL } : {}), // verify the x-hub envelope
  onMessage: ({ text, envelope }) => `${text.toUpperCase()}! (from ${envelope?.sender.agentId})`,
});

createServer(handler.node).listen(port, () => console.log(`HTTP agent on :${port}`));
