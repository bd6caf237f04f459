import { startProductionApp, percentile } from '/work/wt/cellrt/bench/support/productionCore';
const app = startProductionApp({ OPENAI4S_SANDBOX: 'auto' });
const core: any = app.core;
const acc: Record<string, number[]> = {};
function wrap(obj: any, name: string, label: string) {
  const orig = obj[name].bind(obj);
  obj[name] = (...a: any[]) => {
    const t = performance.now();
    const r = orig(...a);
    const done = () => (acc[label] ??= []).push(performance.now() - t);
    if (r && typeof r.then === 'function') r.then(done, done); else done();
    return r;
  };
}
const session = await app.call<{ id: string }>('session.create', { title: 'x' });
const input = { sessionId: session.id, language: 'python', code: 'pass' };
for (let i = 0; i < 200; i++) await app.call('kernel.execute', input);
wrap(core.safety, 'reviewUserCell', 'review');
wrap(core.kernels, 'execute', 'kernels.execute');
wrap(core.ledger.userCells, 'record', 'userCells.record');
wrap(core.provenance.evidence, 'record', 'evidence.record');
const times: number[] = [];
for (let i = 0; i < 1000; i++) { const t = performance.now(); await app.call('kernel.execute', input); times.push(performance.now() - t); }
times.sort((a,b)=>a-b);
console.log('total p50', percentile(times,50).toFixed(3), 'p95', percentile(times,95).toFixed(3));
for (const [k, v] of Object.entries(acc)) { v.sort((a,b)=>a-b); console.log(k, 'p50', percentile(v,50).toFixed(3), 'p95', percentile(v,95).toFixed(3), 'n', v.length); }
await app.close();
