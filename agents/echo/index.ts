// echo (agent-echo-official): any text comes back with a timestamp; `ping` answers a pong with the
// time and the hub→agent latency. The simplest official agent, and the one benchmarks talk to.
import { defineAgent } from '../kit/index.js';

export default defineAgent({
  id: 'agent-echo-official',
  alias: 'echo',
  category: 'utilities',
  tags: ['echo', 'ping', 'testing', 'latency'],
  card: {
    name: 'Echo',
    description: 'Echoes any text back with a timestamp; answers "ping" with a pong and latency.',
    version: '1.0.0',
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'echo',
        name: 'Echo',
        description: 'Returns the text it was sent, with the time it was received.',
        tags: ['echo'],
        examples: ['hello there'],
      },
      {
        id: 'ping',
        name: 'Ping',
        description: 'Answers ping with pong, the time, and the latency from the hub to the agent.',
        tags: ['ping', 'latency'],
        examples: ['ping'],
      },
    ],
  },
  handle(req, ctx) {
    const at = ctx.now();
    const stamp = new Date(at).toISOString();
    if (req.text.trim().toLowerCase() === 'ping') {
      const latency = Math.max(0, at - req.sentAt);
      return Promise.resolve(`🏓 pong\n🕒 ${stamp}\n⏱️ hub → agent latency: ${latency} ms`);
    }
    return Promise.resolve(`🔊 ${req.text}\n🕒 ${stamp}`);
  },
});
