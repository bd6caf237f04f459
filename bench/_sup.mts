import { startProductionApp, percentile } from './support/productionCore';
for (const mode of (process.argv[2] ?? 'auto,off').split(',')) {
  const app = startProductionApp({ OPENAI4S_SANDBOX: mode });
  const session = await app.call<{ id: string }>('session.create', { title: 'x' });
  const k: any = app.core.kernels;
  for (let i = 0; i < 300; i++) await k.execute(session.id, 'python', 'pass');
  const times: number[] = [];
  for (let i = 0; i < 2000; i++) { const t = performance.now(); await k.execute(session.id, 'python', 'pass'); times.push(performance.now() - t); }
  times.sort((a, b) => a - b);
  console.log(mode, 'supervisor p50', percentile(times, 50).toFixed(3), 'p95', percentile(times, 95).toFixed(3), (await k.status(session.id)).slots.map((s:any)=>JSON.stringify(s.sandbox)).join());
  await app.close();
}
