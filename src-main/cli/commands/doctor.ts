import type { DoctorReport } from '../../../src-preload/contract/doctor';
import type { CliCommand } from '../command';

export const doctorCommand: CliCommand = {
  name: 'doctor',
  summary: 'Check interpreters, the kernel sandbox and provider configuration',
  noArguments: true,
  usage: 'openai4s doctor [--json]\n\nExits 1 when no Python kernel can run here (no usable interpreter, or the sandbox is required and missing); anything else marked -- is a warning.',
  options: { json: { type: 'boolean' } },
  needsCore: true,
  async run({ core, values, io }) {
    const report = await core!.doctor();
    io.out(values.json ? JSON.stringify(report, null, 2) : formatDoctor(report));
    const blocking = whyKernelsCannotRun(report);
    // The exit code says it to scripts; stderr says it to the person, whatever stdout holds.
    if (blocking) io.err(`openai4s doctor: no Python kernel can run here: ${blocking}`);
    return blocking ? 1 : 0;
  },
};

/** Why kernels cannot run, as one sentence, or null when they can. */
function whyKernelsCannotRun(r: DoctorReport): string | null {
  if (!kernelsCannotRun(r)) return null;
  if (!r.python.version || r.python.reason) return r.python.reason ?? 'no usable Python interpreter; install python3 or set OPENAI4S_PYTHON.';
  return `the sandbox is required (OPENAI4S_SANDBOX=enforce) but ${r.sandbox.reason ?? r.sandbox.summary ?? 'unavailable'}; install bubblewrap, or set OPENAI4S_SANDBOX=auto to run kernels unsandboxed.`;
}

/** What makes the app unable to compute at all: scripts can check doctor's exit code for it. */
export function kernelsCannotRun(r: DoctorReport): boolean {
  const noPython = !r.python.version || !!r.python.reason;
  const sandboxRequired = r.sandbox.mode === 'enforce' && r.sandbox.state !== 'sandboxed';
  return noPython || sandboxRequired;
}

const mark = (ok: boolean) => (ok ? 'ok ' : '-- ');

export function formatDoctor(r: DoctorReport): string {
  const lines: string[] = [];
  lines.push(`OpenAI4S ${r.version}  (node ${r.node}${r.electron ? `, electron ${r.electron}` : ''}, ${r.platform}/${r.arch})`);
  lines.push(`data dir   ${r.dataDir}${r.dataDirSource === 'env' ? '  (OPENAI4S_DATA_DIR)' : ''}`);
  const py = r.python;
  lines.push(`${mark(!!py.version && !py.reason)}python   ${py.path ?? '(none)'} ${py.version ?? ''}${py.reason ? `  ${py.reason}` : ''}`);
  for (const name of ['numpy', 'pandas', 'matplotlib'] as const) {
    const v = py.packages[name];
    lines.push(`   ${mark(!!v)}${name.padEnd(10)} ${v ?? py.packageReasons?.[name] ?? 'missing'}`);
  }
  if (py.installHint) lines.push(`   install: ${py.installHint}`);
  if (r.r) {
    lines.push(`${mark(!!r.r.version)}R        ${r.r.path} ${r.r.version ?? ''}  jsonlite ${r.r.jsonlite ?? 'missing'}`);
    if (r.r.installHint) lines.push(`   install: ${r.r.installHint}`);
  } else {
    lines.push(`-- R        ${r.rReason ?? 'not found'}`);
    if (r.rInstallHint) lines.push(`   install: ${r.rInstallHint}`);
  }
  lines.push(...formatEnvironments(r));
  const sb = r.sandbox;
  lines.push(`${mark(sb.state === 'sandboxed')}sandbox  ${sb.summary ?? sb.backend} (mode ${sb.mode})${sb.features?.length ? `  [${sb.features.join(', ')}]` : ''}`);
  if (r.safety) {
    // The safety layers of issue 27: on unless a variable turns them off.
    lines.push(`${mark(r.safety.biosecurity.on)}biosec   ${r.safety.biosecurity.summary}`);
    lines.push(`${mark(r.safety.cellReview.on)}review   ${r.safety.cellReview.summary}${r.safety.cellReview.reviewer ? `; ${r.safety.cellReview.reviewer}` : ''}`);
  }
  lines.push(...formatKernelLimits(r));
  lines.push('providers');
  for (const p of r.providers) {
    const key = p.configured ? (p.keySource === 'none' ? 'no key needed' : `key from ${p.keyVariable ?? p.keySource}`) : 'no key';
    lines.push(`   ${mark(p.configured && !p.problem)}${p.id.padEnd(11)}${p.isDefault ? '*' : ' '} ${p.model.padEnd(22)} ${key}${p.problem ? `; ${p.problem}` : ''}`);
  }
  return lines.join('\n');
}

/** Every declared environment: readiness, what is missing, and the exact install command here. */
function formatEnvironments(r: DoctorReport): string[] {
  if (r.environmentsError) return [`-- environments  ${r.environmentsError}`];
  if (!r.environments) return [];
  const lines = ['environments (envs/)'];
  for (const e of r.environments) {
    const state = e.ready ? 'ready' : e.version === null ? (e.reason ?? 'no interpreter') : `missing ${e.missing.join(', ')}`;
    lines.push(`   ${mark(e.ready)}${e.id.padEnd(15)} ${(e.interpreter ?? '(none)').padEnd(22)} ${(e.version ?? '').padEnd(8)} ${state}`);
    if (e.installCommand) lines.push(`      install: ${e.installCommand}`);
  }
  return lines;
}

const LIMIT_LABELS: Record<string, string> = { processes: 'processes', memoryMiB: 'memory', fileSizeMiB: 'file size', openFiles: 'open files', tmpMiB: '/tmp size' };

/** One line per kernel limit: its value, where it came from, and what enforces it here. */
function formatKernelLimits(r: DoctorReport): string[] {
  if (r.kernelLimitsError) return [`-- limits   ${r.kernelLimitsError}`];
  if (!r.kernelLimits) return [];
  const lines = ['kernel limits'];
  for (const l of r.kernelLimits.limits) {
    const value = l.value === null ? 'none' : `${l.value}${l.unit === 'MiB' ? ' MiB' : ''}`;
    const from = l.source === 'default' ? 'envs/limits.json' : `${l.variable} (${l.source})`;
    const how = l.mechanisms.length ? l.mechanisms.join(' + ') : 'not enforced';
    lines.push(`   ${mark(l.mechanisms.length > 0 || l.value === null)}${LIMIT_LABELS[l.name]!.padEnd(11)} ${value.padEnd(10)} ${how}  [${from}]${l.note ? `  (${l.note})` : ''}`);
  }
  const cg = r.kernelLimits.cgroup;
  lines.push(`   cgroups    ${cg.controllers.length ? cg.controllers.join(', ') : 'none usable'}${cg.reasons.length ? `  (${cg.reasons.join('; ')})` : ''}`);
  return lines;
}
