import type { ReplyStep, ScriptStep } from '../llm/scripted/script';
import type { RecordedRoute } from './fixtureServer';
import { INSULIN_CELL } from './insulinCell';

/** The first user story, in the user's words. */
export const INSULIN_QUESTION =
  '帮我查人胰岛素 INS，从 UniProt/RCSB 拉序列和结构，画一张简单图，把结果存成可复现产物，用中文总结。';

export const DEMO_MODEL = 'openai4s-demo-replay';

/** The real payloads the demo replays (resources/demo, origins in its SOURCES.md). */
export const INSULIN_ROUTES: readonly RecordedRoute[] = [
  { method: 'GET', path: '/uniprotkb/P01308.fasta', file: 'uniprot-P01308.fasta', contentType: 'text/plain; charset=utf-8' },
  { method: 'POST', path: '/rcsbsearch/v2/query', file: 'rcsb-search-v2-sequence-polymer_entity.json', contentType: 'application/json' },
  { method: 'GET', path: '/download/4INS.pdb', file: 'pdb-4INS.pdb', contentType: 'chemical/x-pdb' },
];

/** Human insulin B chain (P01308 residues 25-54): the RCSB sequence query. */
const B_CHAIN = 'FVNQHLCGSHLVEALYLVCGERGFFYTPKT';

interface WireMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
}

const EVIDENCE = /ev_[a-z2-7]{16}/g;

function messagesOf(body: unknown): WireMessage[] {
  const messages = (body as { messages?: unknown })?.messages;
  return Array.isArray(messages) ? (messages as WireMessage[]) : [];
}

const textOf = (m: WireMessage | undefined) => (typeof m?.content === 'string' ? m.content : JSON.stringify(m?.content ?? ''));

/** The evidence ids in the result of one tool call (the records' evidence_id values). */
function evidenceOfTool(body: unknown, toolCallId: string): string[] {
  const message = messagesOf(body).find((m) => m.role === 'tool' && m.tool_call_id === toolCallId);
  if (!message) throw new Error(`demo script: no result for ${toolCallId} in the request`);
  const ids = [...new Set(textOf(message).match(EVIDENCE) ?? [])];
  if (!ids.length) throw new Error(`demo script: the result of ${toolCallId} has no evidence id:\n${textOf(message).slice(0, 500)}`);
  return ids;
}

interface CellResult {
  precursor: { length: number; mass_da: number; gravy: number; cysteines: number };
  chains: Record<'A' | 'B', { length: number; mass_da: number; gravy: number; cysteines: number; sequence: string }>;
  structure: { atoms_per_chain: Record<string, number>; title: string };
  artifacts: { fasta: string; structure: string };
  evidence: { uniprot: string; fasta_artifact: string; structure_artifact: string };
}

/** What the cell reported: its RESULT line, its own evidence id, and the figure artifacts. */
function cellOutcome(body: unknown): { result: CellResult; cellEvidence: string; figures: { version: string; evidence: string }[] } {
  const message = [...messagesOf(body)].reverse().find((m) => m.role === 'user' && textOf(m).startsWith('Cell result'));
  const text = textOf(message);
  const line = /RESULT (\{.*\})/.exec(text);
  if (!line) throw new Error(`demo script: the cell printed no RESULT line:\n${text.slice(0, 2000)}`);
  const cellEvidence = /Evidence id of this cell: (ev_[a-z2-7]{16})/.exec(text)?.[1];
  if (!cellEvidence) throw new Error('demo script: the cell has no evidence id');
  const figures = [...text.matchAll(/saved as artifact version (\S+) \(evidence (ev_[a-z2-7]{16})\)/g)].map((m) => ({ version: m[1]!, evidence: m[2]! }));
  return { result: JSON.parse(line[1]!) as CellResult, cellEvidence, figures };
}

const reply = (step: ReplyStep): ReplyStep => ({ chunkSize: 24, ...step });

/**
 * The model's side of the story, as a script for the scripted model server (OpenAI
 * wire). Later steps read the evidence ids and numbers that earlier tool calls and the
 * cell returned, so every citation in the answer names a real record of this session.
 */
export function insulinScript(): ScriptStep[] {
  return [
    reply({
      reply: [
        { reasoning: '用户需要：UniProt 序列、RCSB 结构、一张图、可复现产物、中文总结。先并行检索序列与结构。' },
        { text: '（演示回放：模型回复与数据库响应均为录制数据。）我先从 UniProt 获取 P01308 的序列，并用 B 链序列检索 RCSB。' },
        { toolCall: { id: 'call_uniprot', name: 'science_search', arguments: { database: 'uniprot', operation: 'fasta', query: 'P01308' } } },
        { toolCall: { id: 'call_rcsb', name: 'science_search', arguments: { database: 'pdb', operation: 'sequence', query: B_CHAIN, limit: 5 } } },
      ],
    }),
    (body) => {
      evidenceOfTool(body, 'call_uniprot');
      evidenceOfTool(body, 'call_rcsb');
      return reply({
        reply: [
          { text: '序列已取得。录制的 RCSB 检索响应来自另一条（血红蛋白）序列查询，与胰岛素无关，因此我直接下载经典的胰岛素晶体结构 4INS。' },
          { toolCall: { id: 'call_pdb', name: 'science_search', arguments: { database: 'pdb', operation: 'download', query: '4INS', filters: { format: 'pdb' } } } },
        ],
      });
    },
    (body) => {
      evidenceOfTool(body, 'call_pdb');
      return reply({ reply: [{ text: `接下来在 Python 内核中计算序列性质、作图并保存产物。\n\n\`\`\`python\n${INSULIN_CELL}\`\`\`\n` }] });
    },
    (body) => {
      const [uniprot] = evidenceOfTool(body, 'call_uniprot');
      const [structure] = evidenceOfTool(body, 'call_pdb');
      const { result, cellEvidence, figures } = cellOutcome(body);
      const { precursor, chains } = result;
      const chainAtoms = Object.entries(result.structure.atoms_per_chain)
        .map(([chain, n]) => `${chain}:${n}`)
        .join('，');
      const answer = {
        summary: [
          '**人胰岛素（INS，UniProt P01308）演示报告**（录制回放：数据与模型回复均为录制内容）',
          '',
          `- 前体蛋白（preproinsulin）长 ${precursor.length} 个氨基酸，含 ${precursor.cysteines} 个半胱氨酸，平均疏水性 GRAVY ${precursor.gravy}。`,
          `- 成熟激素由 B 链（第 25–54 位，${chains.B.length} aa）和 A 链（第 90–110 位，${chains.A.length} aa）组成，分子量分别约 ${chains.B.mass_da} Da 和 ${chains.A.mass_da} Da。`,
          `- 结构文件 4INS（${result.structure.title || '胰岛素晶体结构'}）已下载，按链的原子记录数：${chainAtoms}。`,
          '- 组成与疏水性图、FASTA 与结构文件均已保存为带来源记录的版本化产物。',
        ].join('\n'),
        claims: [
          { statement: `UniProt P01308 的前体序列长 ${precursor.length} 个氨基酸。`, basis: 'observed', evidence: [uniprot], uncertainty: '' },
          { statement: `B 链 ${chains.B.length} aa、A 链 ${chains.A.length} aa；前体 GRAVY 为 ${precursor.gravy}。`, basis: 'computed', evidence: [cellEvidence], uncertainty: '按 UniProt 特征区间切分；分子量为平均残基质量估算。' },
          { statement: `结构文件 4INS 含 ${Object.keys(result.structure.atoms_per_chain).length} 条链的原子坐标。`, basis: 'observed', evidence: [structure], uncertainty: '' },
          { statement: 'A、B 两链之间有两对链间二硫键，A 链内有一对链内二硫键（共 6 个半胱氨酸）。', basis: 'inferred', evidence: [uniprot], uncertainty: '由半胱氨酸数目与已知胰岛素折叠推断，未从结构中计算。' },
        ],
        limitations: [
          '这是录制回放的演示：检索响应与模型回复都是录制数据，不是实时查询。',
          '4INS 是猪胰岛素的晶体结构，与人胰岛素仅 B30 一个残基不同；录制的 RCSB 检索响应来自另一条序列查询。',
        ],
        next_steps: ['用真实的模型密钥（如 Ark）重新运行，获得实时检索结果。', '比较 4INS 与人胰岛素结构（如 3I40）的差异。'],
        suggested_questions: ['胰岛素 A 链与 B 链之间的二硫键分别在哪些位置？', '人胰岛素与猪胰岛素的序列差异在哪里？', '能否画出 4INS 的三维结构？'],
        artifacts: [result.artifacts.fasta, result.artifacts.structure, ...figures.map((f) => f.version)],
        completion_bullets: ['取得 UniProt P01308 序列', '下载 RCSB 结构 4INS', '计算序列性质并作图', '保存可复现产物'],
      };
      return reply({ reply: [{ toolCall: { id: 'call_final', name: 'finalize_response', arguments: answer } }] });
    },
  ];
}
