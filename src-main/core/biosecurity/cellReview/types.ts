import { posix } from 'node:path';

/**
 * The pre-execution review of a cell (issue 27): what it found, line by line, and its verdict.
 * Rules are named so the ledger, the approval card and tests speak the same words.
 */
export const REVIEW_RULES = ['process', 'network', 'write_outside', 'credentials', 'install', 'ffi', 'delete', 'dynamic'] as const;
/** `dynamic`: code or a module name built at run time (exec, eval, __import__ of a computed name), which would hide the others. */
export type ReviewRule = (typeof REVIEW_RULES)[number];

export interface ReviewFinding {
  /** 1-based line of the cell. */
  line: number;
  rule: ReviewRule;
  /** What the line does, in words. */
  message: string;
  /** The line itself (trimmed, bounded), so the approval card shows it. */
  text: string;
}

export interface CellReview {
  language: 'python' | 'r';
  /** low: nothing flagged, the cell runs. high: a person approves it first (headless: denied). */
  verdict: 'low' | 'high';
  findings: ReviewFinding[];
  /** What read the cell: Python's own parser (ast) or the token scan (R, or Python that did not parse). */
  reviewer: 'ast' | 'token-scan';
  /** Why the token scan stood in for ast, when it did. */
  note?: string;
  durationMs: number;
}

const MAX_LINE_TEXT = 160;

/** The text of line `line` of `code`, trimmed and bounded. */
export function lineText(code: string, line: number): string {
  const text = (code.split('\n')[line - 1] ?? '').trim();
  return text.length > MAX_LINE_TEXT ? `${text.slice(0, MAX_LINE_TEXT)}…` : text;
}

/** One finding per (line, rule), in line order. */
export function uniqueFindings(findings: readonly ReviewFinding[]): ReviewFinding[] {
  const seen = new Set<string>();
  const out: ReviewFinding[] = [];
  for (const f of [...findings].sort((a, b) => a.line - b.line)) {
    const key = `${f.line}:${f.rule}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(f);
    }
  }
  return out;
}

/** The flagged lines as the approval card and the model read them. */
export function describeFindings(findings: readonly ReviewFinding[]): string {
  return findings.map((f) => `line ${f.line}: ${f.text} (${f.message})`).join('\n');
}

/** Paths a cell may write outside its working directory: scratch space and the sandbox's workspace mount. */
const WRITABLE_ROOTS = ['/tmp/', '/workspace/', '/dev/null'];

export function outsideWorkspace(path: string): boolean {
  const p = path.trim();
  if (!p) return false;
  if (p.startsWith('~') || p.startsWith('../') || p === '..' || /^[A-Za-z]:[\\/]/.test(p)) return true;
  if (p.startsWith('/')) {
    // "/tmp/../etc/x" is /etc/x: read as the path it names.
    const named = posix.normalize(p) + (p.endsWith('/') ? '/' : '');
    return !WRITABLE_ROOTS.some((root) => named === root.replace(/\/$/, '') || named.startsWith(root));
  }
  return posix.normalize(p).startsWith('../') || posix.normalize(p) === '..';
}

/** Credential-like paths (the same list as kernel-workers/python/review.py). */
export const CREDENTIAL_PATH =
  /(^|[/\\~])\.ssh([/\\]|$)|\bid_(rsa|dsa|ecdsa|ed25519)\b|\.aws[/\\](credentials|config)|(^|[/\\~])\.netrc\b|\.pgpass\b|\.git-credentials\b|\.docker[/\\]config\.json|\.kube[/\\]config|(^|[/\\~])\.gnupg\b|\/etc\/(shadow|sudoers)\b|\.config[/\\]gcloud\b|(^|[/\\~])\.azure[/\\]|\.password-store\b|[Kk]eychains?[/\\]|(^|[/\\])\.env$|\.openai4s[/\\]/;
export const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSW(OR)?D|CREDENTIAL)/i;
export const INSTALL_TEXT = /\b(pip3?|conda|mamba|micromamba)\b\s+(install|uninstall)\b|\bpython3?\s+-m\s+pip\b|\bapt(-get)?\s+install\b/;
