import type { PolicyAction, SideEffectClass } from '../capabilities/define';
import type { McpBasisCode } from '../../../src-preload/contract/mcp';
import type { McpPolicyOverrides } from './config';

/** The hints a server may attach to a tool (MCP ToolAnnotations); untrusted, so they only pick a default. */
export interface ToolHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface McpToolPolicy {
  sideEffect: SideEffectClass;
  defaultPolicy: PolicyAction;
  /** Session grants and "always" answers do not carry over: each call asks (destructive tools). */
  askEveryTime: boolean;
  /** Why, in words for Settings and the catalogue line. */
  basis: string;
  basisCode: McpBasisCode;
}

/**
 * Annotations to policy:
 * - destructiveHint (and not read-only): a write that asks every time;
 * - readOnlyHint and not open-world: a read, allowed;
 * - openWorldHint, or read-only but open-world: asks like network egress (a session grant holds);
 * - no annotations: treated as a write to an open world (asks, a session grant holds);
 * - not read-only, not destructive, closed world: a local write that asks.
 * An override from Settings (per tool, else per server) replaces the default and the
 * ask-every-time rule; a stored deny rule still beats everything (the permission policy).
 */
export function policyFromHints(hints: ToolHints | undefined): McpToolPolicy {
  const h = hints ?? {};
  if (h.destructiveHint === true && h.readOnlyHint !== true) return { sideEffect: 'write', defaultPolicy: 'ask', askEveryTime: true, basis: 'destructive: asks every time', basisCode: 'destructive' };
  if (h.readOnlyHint === true && h.openWorldHint !== true) return { sideEffect: 'read', defaultPolicy: 'allow', askEveryTime: false, basis: 'read-only', basisCode: 'read_only' };
  if (h.readOnlyHint === true) return { sideEffect: 'network', defaultPolicy: 'ask', askEveryTime: false, basis: 'read-only, open world: asks like network access', basisCode: 'read_only_open' };
  if (h.openWorldHint === false) return { sideEffect: 'write', defaultPolicy: 'ask', askEveryTime: false, basis: 'writes (closed world): asks', basisCode: 'write_closed' };
  const none = h.readOnlyHint === undefined && h.destructiveHint === undefined && h.openWorldHint === undefined;
  return { sideEffect: 'write', defaultPolicy: 'ask', askEveryTime: false, basis: none ? 'no annotations: treated as a write to an open world, asks' : 'writes to an open world: asks', basisCode: none ? 'unannotated' : 'write_open' };
}

/** The policy in force for one tool: the override chosen in Settings if any, else the annotations'. */
export function effectivePolicy(server: string, tool: string, hints: ToolHints | undefined, overrides: McpPolicyOverrides): McpToolPolicy & { override: PolicyAction | null } {
  const base = policyFromHints(hints);
  const override = overrides.tools[`${server}/${tool}`] ?? overrides.servers[server] ?? null;
  if (!override) return { ...base, override: null };
  return { ...base, defaultPolicy: override, askEveryTime: false, basis: `${base.basis}; overridden in Settings: ${override}`, override };
}
