import type { CitedAnswer } from '../../../src-preload/contract/answer';
import type { RunRecord, SessionSummary } from '../../../src-preload/contract/sessions';
import type { UIMessage } from '../../../src-preload/contract/stream';
import type { ArtifactIndexRow } from './artifactFiles';
import { markdownFileLink } from './markdownLink';

/** A cited artifact id (a version, or an artifact meaning its latest version) with a link to its file in the export. */
function citedArtifact(id: string, exported: readonly ArtifactIndexRow[]): string {
  const row = exported.find((r) => r.id === id) ?? exported.filter((r) => r.artifactId === id).sort((a, b) => b.number - a.number)[0];
  return row ? `- \`${id}\`: ${markdownFileLink(row.file)}${failedNote(row)}` : `- \`${id}\``;
}

/** Said next to every output of a cell that did not end ok: it is not a result. */
function failedNote(row: ArtifactIndexRow): string {
  const o = row.cellOutcome;
  if (!o || o.status === 'ok') return '';
  return ` (**from a failed cell**: ${o.status}${o.error ? `, ${o.error.replace(/[\r\n]+/g, ' ')}` : ''})`;
}

/** A skill a run loaded, as its audit row recorded it. */
export interface SkillUse {
  runId: string;
  name: string;
  source: string;
  sha256: string;
}

/** The skills the session's runs loaded (load_skill, host.skills.load): name, source and hash of the text followed. */
export function skillUses(runs: readonly { runId: string; results: readonly unknown[] }[]): SkillUse[] {
  const seen = new Map<string, SkillUse>();
  for (const { runId, results } of runs) {
    for (const result of results) {
      const r = result as { status?: unknown; output?: { skill?: { name?: unknown; source?: unknown; sha256?: unknown } } } | null;
      const skill = r?.status === 'ok' ? r.output?.skill : undefined;
      if (!skill || typeof skill.name !== 'string' || typeof skill.sha256 !== 'string' || typeof skill.source !== 'string') continue;
      const use = { runId, name: skill.name, source: skill.source, sha256: skill.sha256 };
      seen.set(`${runId}/${use.name}/${use.sha256}`, use);
    }
  }
  return [...seen.values()];
}

/**
 * The human-readable report of an export: each question, its cited answer (cited
 * artifacts linked to their files in the export), and what is in the archive.
 */
export function sessionReport(
  session: SessionSummary,
  runs: readonly RunRecord[],
  messages: readonly UIMessage[],
  files: readonly string[],
  exported: readonly ArtifactIndexRow[] = [],
  skills: readonly SkillUse[] = [],
): string {
  const out: string[] = [`# ${session.title}`, '', `Session \`${session.id}\`, created ${session.createdAt}, exported ${new Date().toISOString()} from OpenAI4S.`, ''];
  let question = 0;
  for (const message of messages) {
    if (message.role === 'user') {
      const text = message.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text).join('\n');
      out.push(`## Question ${++question}`, '', text, '');
      continue;
    }
    const run = runs.find((r) => r.id === message.id);
    if (run) out.push(`Run \`${run.id}\`: ${run.status}${run.failureCode ? ` (${run.failureCode})` : ''}${run.provider ? `, ${run.provider}/${run.model}` : ''}.`, '');
    for (const part of message.parts) {
      if (part.type !== 'data-answer') continue;
      const answer = (part as { data: CitedAnswer }).data;
      out.push('### Answer', '', answer.summary, '');
      if (!answer.cited) out.push('_This answer was given without finalize_response; nothing in it is cited._', '');
      if (answer.claims.length) {
        out.push('### Claims', '', '| # | Claim | Basis | Evidence |', '|---|---|---|---|');
        answer.claims.forEach((c, i) =>
          out.push(`| ${i + 1} | ${c.statement.replace(/\|/g, '\\|').replace(/\n/g, ' ')} | ${c.basis} | ${c.evidence.map((e) => `\`${e}\``).join(', ') || '—'} |`),
        );
        out.push('');
      }
      if (answer.limitations.length) out.push('### Limitations', '', ...answer.limitations.map((l) => `- ${l}`), '');
      if (answer.next_steps.length) out.push('### Next steps', '', ...answer.next_steps.map((l) => `- ${l}`), '');
      if (answer.artifacts.length) out.push('### Artifacts', '', ...answer.artifacts.map((a) => citedArtifact(a, exported)), '');
    }
  }
  const failed = exported.filter((r) => r.cellOutcome && r.cellOutcome.status !== 'ok');
  if (failed.length) {
    out.push('## Outputs of failed cells', '', 'These files were produced by cells that did not finish successfully; they are not results.', '', ...failed.map((r) => `- ${markdownFileLink(r.file)}${failedNote(r)}`), '');
  }
  if (skills.length) {
    out.push('## Skills used', '', 'Recipes the agent loaded, with the sha256 of the SKILL.md it followed.', '', '| Run | Skill | Source | sha256 |', '|---|---|---|---|');
    for (const s of skills) out.push(`| \`${s.runId}\` | ${s.name} | ${s.source} | \`${s.sha256}\` |`);
    out.push('');
  }
  out.push('## Contents of this archive', '', ...files.map((f) => `- ${markdownFileLink(f)}`), '', 'Check it with `openai4s verify <file.zip>`: every file is listed with its sha256 in `manifest.json`.', '');
  return out.join('\n');
}
