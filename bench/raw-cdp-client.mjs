// The floor's CDP half: the least a client can do per command. Connects to one page WebSocket
// (argv[2], ws://…/devtools/page/<targetId>), evaluates document.title, prints it and exits.

import WebSocket from 'ws';

const ws = new WebSocket(process.argv[2]);
const fail = (err) => {
  process.stderr.write(`${err.message ?? err}\n`);
  process.exit(1);
};
ws.on('error', fail);
ws.on('open', () => {
  const params = { expression: 'document.title', returnByValue: true };
  ws.send(JSON.stringify({ id: 1, method: 'Runtime.evaluate', params }));
});
ws.on('message', (data) => {
  const reply = JSON.parse(String(data));
  if (reply.id !== 1) return;
  if (reply.error) fail(new Error(reply.error.message));
  process.stdout.write(`${JSON.stringify(reply.result.result)}\n`, () => process.exit(0));
});
