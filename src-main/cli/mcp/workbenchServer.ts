import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { APP_VERSION } from '../../core/config/version';
import { errorMessage } from '../../core/shared/errorMessage';
import { ResearchError, type ResearchService } from './researchService';
import { REQUEST_ANNOTATIONS, REQUEST_TOOL, requestInput, researchOutput, STATUS_ANNOTATIONS, STATUS_TOOL, statusInput, type ResearchResult } from './researchSchema';

const INSTRUCTIONS =
  'OpenAI4S is a local research workbench. research_assistant_request asks it a research question; it answers with claims citing ' +
  'evidence recorded in the conversation (web pages, database records, computations). Reuse a mutation_id to retry without running twice; ' +
  'if the run is still queued or processing, poll research_assistant_status with its run id.';

function toolResult(run: () => Promise<ResearchResult>): Promise<CallToolResult> {
  return run().then(
    (result) => ({ content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result as unknown as Record<string, unknown> }),
    (error: unknown) => {
      const code = error instanceof ResearchError ? error.code : 'internal';
      // A refusal is a result the client acts on (isError, `<code>: <what to do>`), not a protocol failure.
      // No structured content: clients check it against the output schema even on errors.
      return { isError: true, content: [{ type: 'text', text: `${code}: ${errorMessage(error)}` }] };
    },
  );
}

/** The workbench as an MCP server: the research request and its status, over whichever transport connects it. */
export function createWorkbenchMcpServer(service: ResearchService): McpServer {
  const server = new McpServer({ name: 'openai4s', version: APP_VERSION }, { instructions: INSTRUCTIONS });
  server.registerTool(
    REQUEST_TOOL,
    {
      title: 'Cited research request',
      description:
        'Ask the OpenAI4S research workbench a question. It runs its agent (literature and database search, sandboxed analysis) and returns a cited answer: ' +
        'statement, findings with evidence ids, uncertainty and limitations. Idempotent on mutation_id; a stale expected_revision is refused as revision_conflict.',
      inputSchema: requestInput,
      outputSchema: researchOutput,
      annotations: REQUEST_ANNOTATIONS,
    },
    (args) => toolResult(() => service.request(args)),
  );
  server.registerTool(
    STATUS_TOOL,
    {
      title: 'Research run status',
      description: 'The current state of a research run (and its cited answer once completed), by the run id research_assistant_request returned.',
      inputSchema: statusInput,
      outputSchema: researchOutput,
      annotations: STATUS_ANNOTATIONS,
    },
    (args) => toolResult(() => service.status(args.run_id)),
  );
  return server;
}
