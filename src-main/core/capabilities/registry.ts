import { FINALIZE_TOOL } from '../engine/routeAction';
import type { LlmTool } from '../llm/types';
import type { Tool } from './define';

/**
 * Names no tool may take. `bash`: the science plane is sandboxed cells, never a host
 * shell. `submit_output`: that is the cell-side form of finalize_response, owned by the
 * engine; a tool of that name would give the model a second, unchecked way to answer.
 */
export const FORBIDDEN_TOOL_NAMES = ['bash', 'submit_output'] as const;

const NAME = /^[a-z][a-z0-9_]{0,63}$/;

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  private readonly hostMethods = new Map<string, string>();

  register(tool: Tool): this {
    if ((FORBIDDEN_TOOL_NAMES as readonly string[]).includes(tool.name)) {
      throw new Error(`A tool may not be named "${tool.name}": ${FORBIDDEN_TOOL_NAMES.join(' and ')} are refused by design (no host shell; answers go through finalize_response).`);
    }
    if (tool.name === FINALIZE_TOOL) throw new Error(`${FINALIZE_TOOL} is handled by the engine itself; do not register it as a tool.`);
    if (!NAME.test(tool.name)) throw new Error(`Tool name "${tool.name}" must be lower-case letters, digits and "_" (at most 64), starting with a letter.`);
    if (this.tools.has(tool.name)) throw new Error(`A tool named "${tool.name}" is already registered.`);
    for (const m of [tool.name, ...tool.hostMethods]) {
      const owner = this.hostMethods.get(m);
      if (owner) throw new Error(`Host method "${m}" of ${tool.name} is already served by ${owner}.`);
    }
    this.tools.set(tool.name, tool);
    for (const m of [tool.name, ...tool.hostMethods]) this.hostMethods.set(m, tool.name);
    return this;
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  /** The tool a cell's host method names (`read_file` -> read_text_file, `science.search` -> science_search). */
  forHostMethod(method: string): Tool | undefined {
    const name = this.hostMethods.get(method);
    return name ? this.tools.get(name) : undefined;
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  /** Why `name` cannot be called, in words the model can act on. */
  unknownToolMessage(name: string): string {
    if (name === FINALIZE_TOOL) return `${FINALIZE_TOOL} must be called alone in its reply; it is not part of a tool batch.`;
    if ((FORBIDDEN_TOOL_NAMES as readonly string[]).includes(name)) {
      return name === 'bash'
        ? 'There is no bash tool: run code in a ```python or ```r cell (sandboxed), or use the file tools.'
        : 'submit_output is called from inside a cell (host.submit_output); from a reply, call finalize_response.';
    }
    const model = [...this.forModel().map((t) => t.name), FINALIZE_TOOL];
    return `Unknown tool "${name}". The tools are: ${model.join(', ')}.`;
  }

  /**
   * The model-facing tools of a request, sorted for a stable prompt: every tool offered
   * from the start, plus the on-demand ones this run has found (the engine adds
   * finalize_response itself).
   */
  forModel(disclosed: ReadonlySet<string> = new Set()): LlmTool[] {
    const list = [...this.tools.values()].filter((t) => t.exposeToModel && (!t.onDemand || disclosed.has(t.name))).map((t) => t.llmTool());
    return list.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The capability catalogue: on-demand tools whose name or description match the query's words, best first. */
  searchCatalogue(query: string, limit = 6): Tool[] {
    const terms = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
    const scored = [...this.tools.values()]
      .filter((t) => t.exposeToModel && t.onDemand)
      .map((tool) => {
        const name = tool.name.toLowerCase().split('_');
        const text = tool.description.toLowerCase();
        const score = terms.reduce((n, term) => n + (name.some((w) => w.startsWith(term)) ? 3 : 0) + (text.includes(term) ? 1 : 0), 0);
        return { tool, score };
      });
    // No words: the whole catalogue, so the model can browse it.
    const hits = terms.length ? scored.filter((s) => s.score > 0) : scored;
    return hits.sort((a, b) => b.score - a.score || a.tool.name.localeCompare(b.tool.name)).slice(0, terms.length ? limit : 50).map((s) => s.tool);
  }
}
