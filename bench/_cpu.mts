import fs from 'node:fs';
import { startProductionApp, percentile } from './support/productionCore';
const direct = process.argv[2] === 'sup';
const app = startProductionApp({ OPENAI4S_SANDBOX: 'auto' });
const session = await app.call<{ id: string }>('session.create', { title: 'x' });
const input = { sessionId: session.id, language: 'python', code: 'pass' };
const k: any = app.core.kernels;
const one = () => direct ? k.execute(session.id, 'python', 'pass') : app.call('kernel.execute', input);
for (let i = 0; i < 300; i++) await one();
const pids = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => { try { return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('worker.py'); } catch { return false; } });
const sched = () => pids.reduce((s, p) => { try { return s + fs.readdirSync(`/proc/${p}/task`).reduce((a, t) => a + Number(fs.readFileSync(`/proc/${p}/task/${t}/schedstat`, 'utf8').split(' ')[0]), 0); } catch { return s; } }, 0);
const N = 2000;
const c0 = process.cpuUsage(); const s0 = sched(); const times: number[] = [];
for (let i = 0; i < N; i++) { const t = performance.now(); await one(); times.push(performance.now() - t); }
const c = process.cpuUsage(c0); const s = sched() - s0; for (const t of fs.readdirSync("/proc/self/task")) { const st = fs.readFileSync(`/proc/self/task/${t}/stat`, "utf8"); const f = st.slice(st.lastIndexOf(")") + 2).split(" "); console.log(t, fs.readFileSync(`/proc/self/task/${t}/comm`, "utf8").trim(), "utime", f[11], "stime", f[12]); }
times.sort((a, b) => a - b);
console.log(direct ? 'supervisor' : 'handler', 'p50', percentile(times, 50).toFixed(3), 'p95', percentile(times, 95).toFixed(3), 'node cpu us/cell', ((c.user + c.system) / N).toFixed(1), '(user', (c.user / N).toFixed(1), ') python cpu us/cell', (s / 1000 / N).toFixed(1), 'pids', pids.length);
await app.close();
