/** One measured figure. `target` is the target in words, `met` whether it holds. */
export interface BenchRow {
  metric: string;
  value: number;
  unit: string;
  target?: string;
  met?: boolean;
}

/** A benchmark suite: bench/suites/<name>.bench.ts default-exports one. */
export interface BenchSuite {
  name: string;
  run(): Promise<BenchRow[]>;
}
