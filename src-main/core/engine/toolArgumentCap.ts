/**
 * The largest tool-call argument the engine accepts, in UTF-8 bytes. Tool arguments are
 * streamed into the UI, written to the ledger and sent back to the model on every later
 * turn; a 5 MB + 9 MB argument once wrote 272 MB of ledger. Large content belongs in a
 * file written by a cell, which the sandbox, the artifact store and the export handle.
 */
export const MAX_TOOL_ARGUMENT_BYTES = 1024 * 1024;

/** How much of a refused argument is kept (in the ledger and the model's history) to say what it was. */
export const REFUSED_ARGUMENT_PREVIEW_CHARS = 200;

const REFUSAL = `tool arguments over ${MAX_TOOL_ARGUMENT_BYTES} bytes were refused; write large content to a file in a cell instead`;

/** The error the model and the run see for a call whose arguments passed the cap. */
export function argumentRefusal(toolName: string): string {
  return `${toolName}: ${REFUSAL}`;
}

export function isArgumentRefusal(parseError: string | null): boolean {
  return parseError !== null && parseError.endsWith(REFUSAL);
}

/** The start of a refused argument, marked as cut. */
export function refusedPreview(raw: string, bytes: number): string {
  return `${raw.slice(0, REFUSED_ARGUMENT_PREVIEW_CHARS)}… [${bytes}+ bytes refused]`;
}
