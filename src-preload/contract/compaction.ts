import { z } from 'zod';

/**
 * The structured handoff of a compaction (issue 19; the design seed's fields: Objective,
 * Constraints, Decisions, Done, In progress, Blocked, Next move, Key artifacts, Active
 * kernel generation). It replaces the older turns of a long run in the model's context,
 * so each field is short text the next request can act on.
 */
const item = z.string().min(1).max(2_000);

export const handoffSchema = z
  .object({
    objective: z.string().min(1).max(4_000),
    constraints: z.array(item).max(30),
    decisions: z.array(item).max(40),
    done: z.array(item).max(60),
    inProgress: z.array(item).max(30),
    blocked: z.array(item).max(30),
    nextMove: z.string().min(1).max(2_000),
    /** Artifact versions (`path vN (av_...)`) and archived results (`sha256`) the work depends on. */
    keyArtifacts: z.array(item).max(60),
    /** The kernel generation(s) whose variables are live: `python generation 2 (id ...)`, or `none`. */
    activeKernelGeneration: z.string().min(1).max(1_000),
  })
  .strict();

export type Handoff = z.output<typeof handoffSchema>;

/** The handoff fields in the design's order, with their display names. */
export const HANDOFF_FIELDS: readonly { key: keyof Handoff; label: string }[] = [
  { key: 'objective', label: 'Objective' },
  { key: 'constraints', label: 'Constraints' },
  { key: 'decisions', label: 'Decisions' },
  { key: 'done', label: 'Done' },
  { key: 'inProgress', label: 'In progress' },
  { key: 'blocked', label: 'Blocked' },
  { key: 'nextMove', label: 'Next move' },
  { key: 'keyArtifacts', label: 'Key artifacts' },
  { key: 'activeKernelGeneration', label: 'Active kernel generation' },
];

/**
 * `data-compaction`: the divider "earlier turns summarised" in the conversation. Written
 * when a run's context was compacted; the handoff is what the model reads from then on
 * instead of the summarised turns (which stay whole in the ledger and the export).
 */
export const compactionDataSchema = z
  .object({
    id: z.string(),
    turn: z.number().int().min(1),
    source: z.enum(['model', 'fallback']),
    /** Why the provider's summary was not used (failed call, invalid JSON, ...), for a fallback. */
    fallbackReason: z.string().optional(),
    handoff: handoffSchema,
    /** How many messages of the history this and earlier compactions replaced. */
    summarisedMessages: z.number().int().min(0),
    tokensBefore: z.number().int().min(0),
    tokensAfter: z.number().int().min(0),
    windowTokens: z.number().int().min(1),
    /** Large results archived so far in the run (each recallable by sha256). */
    archivedResults: z.number().int().min(0),
  })
  .strict();

export type CompactionData = z.output<typeof compactionDataSchema>;
