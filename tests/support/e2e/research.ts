import type { ScriptStep } from '../scriptedModel';

/** The evidence id the host gave the model for the last cell (every cited id must be this session's). */
function cellEvidenceId(body: unknown): string | null {
  const ids = [...JSON.stringify(body).matchAll(/Evidence id of this cell: (ev_[a-z2-7]{16})/g)];
  return ids.at(-1)?.[1] ?? null;
}

/**
 * The finalize step after a cell: the first claim becomes a computed one citing the cell's
 * real evidence id, read from the request (as a model would read it from the cell result).
 */
export const finalizeCitingCell: ScriptStep = (body) => {
  const id = cellEvidenceId(body);
  const [first, ...rest] = ANSWER.claims;
  const claims = id ? [{ ...first!, basis: 'computed', evidence: [id] }, ...rest] : ANSWER.claims;
  return { reply: [{ toolCall: { name: 'finalize_response', arguments: { ...ANSWER, claims } } }] };
};

/**
 * The scripted research conversation the workbench e2e test plays: reasoning and a
 * tool call, then a Python cell that draws a figure, then a cited finalize. The model
 * server plays it over the real OpenAI wire; the engine, ledger and sandboxed kernel
 * are the real ones.
 */
export const QUESTION =
  'Look up human insulin (INS) and draw a simple figure of its chain lengths.';

export const CELL_CODE = [
  'import matplotlib',
  "matplotlib.use('Agg')",
  'import matplotlib.pyplot as plt',
  "chains = {'A chain': 21, 'B chain': 30}",
  'fig, ax = plt.subplots(figsize=(4, 2.6))',
  "ax.bar(list(chains), list(chains.values()), color=['#2b6e72', '#95570a'])",
  "ax.set_ylabel('residues')",
  "ax.set_title('Human insulin chains')",
  "print('total residues:', sum(chains.values()))",
].join('\n');

export const ANSWER = {
  summary: [
    'Human insulin is a two-chain peptide hormone: the **A chain** has 21 residues and the **B chain** 30, joined by two disulfide bonds.',
    '',
    '| Chain | Residues |',
    '| --- | --- |',
    '| A | 21 |',
    '| B | 30 |',
    '',
    'Together: $21 + 30 = 51$ residues.',
  ].join('\n'),
  claims: [
    {
      statement: 'The mature hormone has 51 residues in two chains.',
      basis: 'inferred',
      evidence: [] as string[],
      uncertainty: 'low',
    },
    {
      statement: 'Insulin lowers blood glucose.',
      basis: 'generated',
      evidence: [],
      uncertainty: 'textbook knowledge, not retrieved here',
    },
  ],
  limitations: ['No database record was retrieved in this run; the counts are textbook values.'],
  next_steps: ['Retrieve P01308 from UniProt to confirm the sequence.'],
  suggested_questions: [
    'Show the 3D structure of insulin (PDB 4INS).',
    'Compare human and bovine insulin.',
  ],
  artifacts: [],
  completion_bullets: ['Drew the chain-length figure', 'Summarized the structure'],
};

export function researchScript(): ScriptStep[] {
  return [
    {
      reply: [
        {
          reasoning:
            'The user wants insulin facts and a figure. First look for a record, then plot the two chain lengths.',
        },
        { text: 'I will search UniProt for human insulin first.' },
        {
          toolCall: {
            name: 'science_search',
            arguments: { database: 'uniprot', query: 'insulin human', limit: 3 },
          },
        },
      ],
      chunkDelayMs: 5,
    },
    {
      reply: [
        {
          text: `The search is not available, so I will plot the known chain lengths.\n\n\`\`\`python\n${CELL_CODE}\n\`\`\`\n`,
        },
      ],
    },
    finalizeCitingCell,
  ];
}
