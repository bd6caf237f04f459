import { describe, expect, it } from 'vitest';
import { bundledKernel } from './harness';

const k = bundledKernel();

interface Result {
  test: string;
  statistic: number;
  df: number | number[] | null;
  p: number;
  effect_size: number | null;
  ci95?: number[];
  pairwise?: { a: string; b: string; p_adjusted: number }[];
}

describe('bundled skill reviewer-statistics', () => {
  it("Student's sleep data: paired t(9) = 4.062, p = 0.002833 (as R's t.test), d_z 1.28; unpaired Welch p = 0.079; PlantGrowth ANOVA F(2,27) = 4.846", async () => {
    const r = await k.json<{ paired: Result; welch: Result; anova: Result; sentence: string }>(
      [
        'import json, warnings',
        'warnings.simplefilter("ignore")',
        'rs = host.skills.sidecar("reviewer-statistics")',
        'sleep_path, plants_path = rs.example_paths()',
        'g = rs.groups(rs.read_csv(sleep_path), "extra", "group")',
        'paired = rs.paired(g["1"], g["2"], method="t")',
        'anova = rs.several_groups(rs.groups(rs.read_csv(plants_path), "weight", "group"))',
        'print(json.dumps({"paired": paired, "welch": rs.two_groups(g["1"], g["2"]), "anova": anova, "sentence": rs.sentence(paired)}))',
      ].join('\n'),
    );
    // R: t.test(extra ~ group, data = sleep, paired = TRUE) -> t = -4.0621, df = 9, p-value = 0.002833, CI 0.700 to 2.460 (group 2 - 1).
    expect(r.paired.test).toBe('paired t-test');
    expect(r.paired.statistic).toBeCloseTo(4.0621, 4);
    expect(r.paired.df).toBe(9);
    expect(r.paired.p).toBeCloseTo(0.002833, 6);
    expect(r.paired.ci95![0]).toBeCloseTo(0.7001142, 6);
    expect(r.paired.ci95![1]).toBeCloseTo(2.4598858, 6);
    expect(r.paired.effect_size).toBeCloseTo(1.58 / 1.2299955, 4);
    // R: t.test(extra ~ group, data = sleep) (Welch) -> t = -1.8608, df = 17.776, p-value = 0.07939.
    expect(r.welch.test).toBe('Welch t-test');
    expect(r.welch.p).toBeCloseTo(0.07939, 5);
    expect(r.welch.df as number).toBeCloseTo(17.776, 3);
    // R: summary(aov(weight ~ group, PlantGrowth)) -> F = 4.846 on 2 and 27 df, p = 0.0159; eta^2 = 3.766 / 14.258.
    expect(r.anova.test).toBe('one-way ANOVA');
    expect(r.anova.df).toEqual([2, 27]);
    expect(r.anova.statistic).toBeCloseTo(4.846, 3);
    expect(r.anova.p).toBeCloseTo(0.0159, 4);
    expect(r.anova.effect_size).toBeCloseTo(3.76634 / 14.25843, 4);
    const below = r.anova.pairwise!.filter((p) => p.p_adjusted < 0.05).map((p) => `${p.a}-${p.b}`);
    expect(below).toEqual(['trt1-trt2']);
    expect(r.sentence).toBe('paired t-test: t(9) = 4.06, p = 0.00283, d_z = 1.28, mean difference 1.58 (95% CI 0.70 to 2.46)');
  });
});
