import { CREDENTIAL_PATH, INSTALL_TEXT, lineText, outsideWorkspace, uniqueFindings, type ReviewFinding, type ReviewRule } from './types';

/**
 * The token scan: a line-by-line read of a cell's code with comments removed and string
 * literals kept apart. It reviews every R cell, and a Python cell when Python's own parser
 * could not (no interpreter for the reviewer, or code that does not parse, such as `!pip`).
 */

interface ScannedLine {
  line: number;
  /** The code without its comment, strings included. */
  code: string;
  /** The string literals of the line, unquoted. */
  strings: string[];
}

/** Splits code into lines, each without its `#` comment, with its string literals (both languages quote alike). */
export function scanLines(code: string): ScannedLine[] {
  return code.split('\n').map((raw, i) => {
    const strings: string[] = [];
    let out = '';
    let quote: string | null = null;
    let current = '';
    for (let j = 0; j < raw.length; j++) {
      const c = raw[j]!;
      if (quote) {
        if (c === '\\' && j + 1 < raw.length) {
          current += raw[++j];
          out += c + raw[j];
          continue;
        }
        out += c;
        if (c === quote) {
          strings.push(current);
          quote = null;
          current = '';
        } else current += c;
        continue;
      }
      if (c === '#') break;
      if (c === '"' || c === "'") {
        quote = c;
        current = '';
      }
      out += c;
    }
    if (quote) strings.push(current);
    return { line: i + 1, code: out, strings };
  });
}

type Rule = { rule: ReviewRule; pattern: RegExp; message: string };

const R_RULES: Rule[] = [
  { rule: 'process', pattern: /(?<![\w.])(system2?|shell|shell\.exec|pipe)\s*\(|\b(processx|callr|sys)::|\blibrary\s*\(\s*["']?(processx|callr|sys)\b/, message: 'starts another program' },
  { rule: 'network', pattern: /(?<![\w.])(socketConnection|make\.socket|url|download\.file|curl_download|curl_fetch_\w+)\s*\(|\b(httr2?|curl|RCurl|rvest|websocket|crul)::|\b(library|require)\s*\(\s*["']?(httr2?|curl|RCurl|rvest|websocket|crul)\b/, message: 'uses the network' },
  { rule: 'install', pattern: /\binstall\.packages\s*\(|\bBiocManager::install\s*\(|\bremotes::install_\w+\s*\(|\bdevtools::install\w*\s*\(|\bpak::(pkg_install|pak)\s*\(/, message: 'installs packages' },
  { rule: 'ffi', pattern: /\bdyn\.load\s*\(|(?<![\w.])\.(C|Fortran|External)\s*\(/, message: 'loads or calls native code' },
  { rule: 'delete', pattern: /\bunlink\s*\([^)]*recursive\s*=\s*(TRUE|T)\b|\b(file\.remove|unlink)\s*\(\s*(list\.files|dir)\s*\(/, message: 'deletes many files' },
  { rule: 'credentials', pattern: /\bSys\.getenv\s*\(\s*["'][^"']*(KEY|TOKEN|SECRET|PASSW(OR)?D|CREDENTIAL)[^"']*["']/i, message: 'reads a secret-like environment variable' },
  { rule: 'process', pattern: /(?<![\w.])(do\.call|get|match\.fun)\s*\(\s*["'](system2?|shell|pipe)["']/, message: 'starts another program (by name)' },
  {
    rule: 'dynamic',
    pattern: /(?<![\w.])eval\s*\(\s*(parse|str2lang|str2expression)\s*\(|(?<![\w.])(do\.call|get|match\.fun)\s*\(\s*(paste0?|sprintf|gsub|sub|rev|intToUtf8|rawToChar)\s*\(/,
    message: 'runs code or a function whose name is built at run time, which this review cannot read',
  },
];
const R_WRITES = /\b(write\.csv2?|write\.table|write\.delim|write_csv|write_tsv|write_delim|write_rds|saveRDS|save|ggsave|writeLines|cat|sink|file\.copy|file\.rename|file\.create|dir\.create|pdf|png|svg|jpeg|tiff|write\.xlsx|fwrite|file)\s*\(/;

const PY_RULES: Rule[] = [
  { rule: 'process', pattern: /^\s*!|^\s*%+(sh|bash|system|sx)\b|\b(import|from)\s+(subprocess|pty|pexpect|sh|plumbum)\b|\bos\.(system|popen|exec\w*|spawn\w*|fork\w*|posix_spawnp?)\s*\(|\bcreate_subprocess_(exec|shell)\b/, message: 'starts another program' },
  { rule: 'network', pattern: /\b(import|from)\s+(socket|socketserver|ssl|http\.client|http\.server|urllib\.request|urllib3|requests|httpx|aiohttp|ftplib|smtplib|poplib|imaplib|telnetlib|paramiko|fabric|asyncssh|websockets?|pycurl|xmlrpc|wget)\b|\bfrom\s+urllib\s+import\s+request\b|\burllib\.request\./, message: 'uses a network library' },
  { rule: 'install', pattern: /^\s*%(pip|conda|mamba)\b|\b(import|from)\s+(pip|ensurepip)\b|\bpip\.main\s*\(/, message: 'installs packages' },
  { rule: 'ffi', pattern: /\b(import|from)\s+(ctypes|_ctypes|cffi)\b/, message: 'calls native code directly' },
  { rule: 'delete', pattern: /\brmtree\s*\(/, message: 'deletes a whole directory tree' },
  { rule: 'credentials', pattern: /\bos\.(environ\s*\[|environ\.get\s*\(|getenv\s*\()\s*["'][^"']*(KEY|TOKEN|SECRET|PASSW(OR)?D|CREDENTIAL)[^"']*["']/i, message: 'reads a secret-like environment variable' },
  {
    rule: 'dynamic',
    pattern: /(?<![\w.])(exec|eval|compile)\s*\(|(?<![\w.])(__import__|import_module)\s*\(\s*(?!["'][\w.]+["']\s*\))|\b__builtins__\b|\bbuiltins\.__dict__\b/,
    message: 'runs code or imports a module built at run time, which this review cannot read',
  },
];
const PY_WRITES = /\b(open|to_csv|to_excel|to_parquet|to_json|to_pickle|savefig|write_text|write_bytes|save|savetxt|copy|copy2|copyfile|copytree|move|rename|makedirs|mkdir|write)\s*\(/;

function scan(code: string, rules: readonly Rule[], writes: RegExp): ReviewFinding[] {
  const findings: ReviewFinding[] = [];
  const add = (line: number, rule: ReviewRule, message: string) => findings.push({ line, rule, message, text: lineText(code, line) });
  for (const l of scanLines(code)) {
    for (const r of rules) if (r.pattern.test(l.code)) add(l.line, r.rule, r.message);
    const credential = l.strings.find((s) => CREDENTIAL_PATH.test(s));
    if (credential) add(l.line, 'credentials', `names a credential-like path (${credential.slice(0, 80)})`);
    if (l.strings.some((s) => INSTALL_TEXT.test(s)) || INSTALL_TEXT.test(l.strings.join(' '))) add(l.line, 'install', 'runs a package install command');
    const outside = writes.test(l.code) ? l.strings.find(outsideWorkspace) : undefined;
    if (outside) add(l.line, 'write_outside', `writes ${outside}, outside the workspace`);
  }
  return uniqueFindings(findings);
}

export const scanR = (code: string): ReviewFinding[] => scan(code, R_RULES, R_WRITES);
export const scanPython = (code: string): ReviewFinding[] => scan(code, PY_RULES, PY_WRITES);
