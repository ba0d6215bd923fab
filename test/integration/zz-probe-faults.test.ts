import { spawn } from 'node:child_process';
import { it } from 'vitest';
import { CLI, startHarness } from './harness.js';
it('probe', async () => {
  const h = await startHarness();
  const tab = await h.open('basic.html');
  let r = await h.cli({ tab, timeout: 2000, steps: [{ pageFunction: '() => { while (true) {} }' }] });
  console.log(r.stdout, r.ms);
  r = await h.cli({ tab, steps: [{ pageFunction: '() => { while (true) {} }', timeout: 2000 }] });
  console.log(r.stdout, r.ms);
  r = await h.cli({ tab, steps: [{ goto: `${h.baseUrl}/never`, timeout: 2000 }] });
  console.log(r.stdout, r.ms);
  r = await h.cli({ tab, steps: [{ pageFunction: "() => { alert('hi'); return 'after' }" }] });
  console.log(r.stdout, r.ms);
  for (const cmd of [{ tab, steps: [{ pageFunction: 'document.title' }] }, { steps: [{ openTab: { url: h.baseUrl + '/basic.html', port: h.port } }] }]) {
    const child = spawn(process.execPath, [CLI, JSON.stringify(cmd)], { env: h.env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (c) => { stderr += c; });
    const t = Date.now();
    const res = await new Promise((resolve) => child.on('close', (c, s) => resolve([c, s])));
    console.log('closed', res, Date.now() - t, JSON.stringify(stderr));
  }
  await h.close();
}, 60000);
