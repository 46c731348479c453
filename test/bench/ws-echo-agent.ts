// A WebSocket agent in its own process for the round-trip benchmark: it answers every message
// frame with a completed task_response echoing the text.
// `node --import tsx test/bench/ws-echo-agent.ts <hub url> <api key>`
import WebSocket from 'ws';

const [hubUrl, key] = process.argv.slice(2);
const ws = new WebSocket(`${hubUrl!.replace(/^http/, 'ws')}/ws`, {
  headers: { authorization: `Bearer ${key}` },
  perMessageDeflate: false,
});
ws.on('message', (data) => {
  const f = JSON.parse((data as Buffer).toString()) as {
    type: string;
    taskId?: string;
    payload?: { parts: Array<{ kind: string; text?: string }> };
  };
  if (f.type === 'welcome') process.stdout.write('ready\n');
  if (f.type !== 'message') return;
  const text = f.payload?.parts.map((p) => p.text ?? '').join(' ') ?? '';
  ws.send(
    JSON.stringify({
      type: 'task_response',
      taskId: f.taskId,
      status: { state: 'completed' },
      artifact: { parts: [{ kind: 'text', text: `echo: ${text}` }] },
      lastChunk: true,
    })
  );
});
ws.on('close', () => process.exit(0));
process.on('SIGTERM', () => ws.close());
