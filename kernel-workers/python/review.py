"""Pre-execution review of Python cells (issue 27): a static read with `ast`, never an execution.

The host keeps one of these warm (src-main/core/biosecurity/cellReview/pythonReviewer.ts) and
writes one JSON object per line on stdin: {"id": n, "code": "..."}. It answers one line per
request on stdout: {"id": n, "ok": true, "findings": [{"line", "rule", "message"}]} or
{"id": n, "ok": false, "error": "..."} when the code does not parse (the host then falls back
to its token scan). Only the standard library is used, so any python3 can run it with -I -S.

The rules flag intent that ordinary science code does not have: spawning processes, network
libraries and sockets, writing outside the workspace, reading credential-like paths,
package installs, foreign-function interfaces, deleting many files, and code or module names
built at run time (exec, eval, __import__ of a computed name), which would hide the others. The sandbox still
applies whatever this says; the review exists so a person sees such a cell before it runs.
"""

import ast
import json
from collections import deque
import posixpath
import re
import sys

PROCESS_MODULES = {"subprocess", "pty", "pexpect", "sh", "plumbum", "commands", "popen2"}
PROCESS_CALLS = {
    "os.system", "os.popen", "os.fork", "os.forkpty", "os.posix_spawn", "os.posix_spawnp", "os.startfile",
    "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell",
}
PROCESS_PREFIXES = ("os.exec", "os.spawn")
NETWORK_MODULES = {
    "socket", "socketserver", "ssl", "http.client", "http.server", "urllib.request", "urllib3", "requests",
    "httpx", "aiohttp", "ftplib", "smtplib", "poplib", "imaplib", "telnetlib", "paramiko", "fabric", "asyncssh",
    "websocket", "websockets", "pycurl", "xmlrpc.client", "xmlrpc.server", "wget",
}
FFI_MODULES = {"ctypes", "_ctypes", "cffi"}
INSTALL_MODULES = {"pip", "ensurepip", "conda", "conda.cli"}
INSTALL_TEXT = re.compile(r"\b(pip3?|conda|mamba|micromamba)\b\s+(install|uninstall)\b|\bpython3?\s+-m\s+pip\b|\bapt(-get)?\s+install\b")
CREDENTIAL_PATH = re.compile(
    r"(^|[/\\~])\.ssh([/\\]|$)|\bid_(rsa|dsa|ecdsa|ed25519)\b|\.aws[/\\](credentials|config)|(^|[/\\~])\.netrc\b|\.pgpass\b"
    r"|\.git-credentials\b|\.docker[/\\]config\.json|\.kube[/\\]config|(^|[/\\~])\.gnupg\b|/etc/(shadow|sudoers)\b"
    r"|\.config[/\\]gcloud\b|(^|[/\\~])\.azure[/\\]|\.password-store\b|[Kk]eychains?[/\\]|(^|[/\\])\.env$|\.openai4s[/\\]",
)
SECRET_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSW(OR)?D|CREDENTIAL)", re.I)
WRITE_CALLS = {
    "to_csv", "to_tsv", "to_excel", "to_parquet", "to_json", "to_hdf", "to_pickle", "to_feather", "to_stata", "to_sql",
    "savefig", "write_text", "write_bytes", "save", "savez", "savez_compressed", "savetxt", "tofile", "to_file", "imwrite",
    "imsave", "savemat", "copy", "copy2", "copyfile", "copytree", "move", "rename", "replace", "symlink", "symlink_to", "link",
    "hardlink_to", "makedirs", "mkdir", "chmod", "chown", "write", "MolToMolFile", "MolToPDBFile", "SDWriter", "urlretrieve",
    "touch", "write_image", "write_html",
}
DELETE_CALLS = {"os.remove", "os.unlink", "os.rmdir", "os.removedirs", "unlink", "rmdir", "send2trash"}
# Code run from a string: whatever it does is out of this review's sight.
DYNAMIC_CALLS = {"exec", "eval", "compile", "builtins.exec", "builtins.eval", "builtins.compile"}
# Modules whose attributes, taken by a computed name (getattr), reach processes, files or imports.
RISKY_NAMESPACES = {"os", "subprocess", "builtins", "importlib", "socket", "ctypes", "shutil", "pty", "sys"}
# The os module under its platform names.
OS_ALIASES = {"posix": "os", "nt": "os"}
# Absolute paths a cell may write: the kernel's scratch space and the sandbox's workspace mount.
WRITABLE_ROOTS = ("/tmp/", "/workspace/", "/dev/null")
WRITE_MODE = re.compile(r"[wax+]")


def dotted(node):
    """`a.b.c` for a Name/Attribute chain, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def strings_in(node):
    """String constants directly in a node: itself, a sum of constants ("sub" + "process"), or the
    elements of a list/tuple (argv lists)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = strings_in(node.left), strings_in(node.right)
        if len(left) == 1 and len(right) == 1 and not isinstance(node.left, (ast.List, ast.Tuple)):
            return [left[0] + right[0]]
        return []
    if isinstance(node, ast.JoinedStr):
        return ["".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))]
    if isinstance(node, (ast.List, ast.Tuple)):
        out = []
        for element in node.elts:
            out.extend(strings_in(element))
        return out
    return []


def outside_workspace(path):
    p = path.strip()
    if not p:
        return False
    if p.startswith("~") or p.startswith("../") or p == ".." or re.match(r"^[A-Za-z]:[\\/]", p):
        return True
    if p.startswith("/"):
        # "/tmp/../etc/x" is /etc/x: read as the path it names.
        p = posixpath.normpath(p) + ("/" if p.endswith("/") else "")
        return not any(p == root.rstrip("/") or p.startswith(root) for root in WRITABLE_ROOTS)
    return posixpath.normpath(p).startswith("..")


def prefixes(module):
    """`a.b.c` -> {"a", "a.b", "a.b.c"}: a module or call matches a listed module by any of them."""
    parts = module.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts) + 1)}


def matches(module, names):
    return not names.isdisjoint(prefixes(module))


class Reviewer:
    """One cell's review. `loops` is how many loops enclose the node being read (set by the walk)."""

    def __init__(self):
        self.findings = []
        self.aliases = {}
        self.loops = 0

    def flag(self, node, rule, message):
        self.findings.append({"line": getattr(node, "lineno", 1), "rule": rule, "message": message})

    def module_rules(self, node, module):
        if matches(module, PROCESS_MODULES):
            self.flag(node, "process", f"imports {module}, which starts other programs")
        elif matches(module, NETWORK_MODULES):
            self.flag(node, "network", f"imports {module}, a network library")
        elif matches(module, FFI_MODULES):
            self.flag(node, "ffi", f"imports {module}, which calls native code directly")
        elif matches(module, INSTALL_MODULES):
            self.flag(node, "install", f"imports {module}, which installs packages")

    def visit_Import(self, node):
        for alias in node.names:
            self.aliases[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else alias.name.split(".")[0]
            self.module_rules(node, alias.name)

    def visit_ImportFrom(self, node):
        module = node.module or ""
        if node.level:
            return
        flagged = len(self.findings)
        self.module_rules(node, module)
        for alias in node.names:
            full = f"{module}.{alias.name}"
            self.aliases[alias.asname or alias.name] = full
            if len(self.findings) == flagged:
                self.module_rules(node, full)

    def resolve(self, name):
        if not name:
            return None
        head, _, rest = name.partition(".")
        base = self.aliases.get(head, head)
        first, dot, tail = base.partition(".")
        base = OS_ALIASES.get(first, first) + dot + tail
        return f"{base}.{rest}" if rest else base

    def call_rules(self, node, name):
        """The process, network and native-code rules for a call of `name`; True when one flagged it."""
        if name in PROCESS_CALLS or name.startswith(PROCESS_PREFIXES) or matches(name, PROCESS_MODULES):
            self.flag(node, "process", f"calls {name}, which starts another program")
        elif matches(name, NETWORK_MODULES):
            self.flag(node, "network", f"calls {name}, which opens a network connection")
        elif matches(name, FFI_MODULES):
            self.flag(node, "ffi", f"calls {name} (native code)")
        else:
            return False
        return True

    def visit_Subscript(self, node):
        target = self.resolve(dotted(node.value))
        if target in ("__builtins__", "builtins.__dict__", "__builtins__.__dict__"):
            self.flag(node, "dynamic", "takes a built-in by a computed name, which this review cannot read")
        if target == "os.environ":
            for s in strings_in(node.slice):
                if SECRET_NAME.search(s):
                    self.flag(node, "credentials", f"reads the secret-like environment variable {s}")

    def visit_Constant(self, node):
        if isinstance(node.value, str):
            if CREDENTIAL_PATH.search(node.value):
                self.flag(node, "credentials", f"names a credential-like path ({node.value[:80]})")
            elif INSTALL_TEXT.search(node.value):
                self.flag(node, "install", "runs a package install command")

    def visit_List(self, node):
        # An argv list (["pip", "install", "x"]) says it only once its words are joined.
        parts = strings_in(node)
        if INSTALL_TEXT.search(" ".join(parts)) and not any(INSTALL_TEXT.search(p) for p in parts):
            self.flag(node, "install", "runs a package install command")

    visit_Tuple = visit_List

    def visit_Call(self, node):
        name = self.resolve(dotted(node.func))
        last = name.rsplit(".", 1)[-1] if name else (node.func.attr if isinstance(node.func, ast.Attribute) else None)
        args = list(node.args) + [k.value for k in node.keywords]
        texts = [s for a in args for s in strings_in(a)]
        if name:
            if self.call_rules(node, name):
                pass
            elif name in ("__import__", "builtins.__import__", "importlib.import_module", "importlib.__import__"):
                first = strings_in(node.args[0]) if node.args else []
                if first:
                    self.module_rules(node, first[0])
                else:
                    self.flag(node, "dynamic", f"{name} imports a module whose name is computed at run time")
            elif name in DYNAMIC_CALLS:
                self.flag(node, "dynamic", f"runs code built at run time ({name}), which this review cannot read")
            elif name in ("getattr", "builtins.getattr") and node.args:
                owner = self.resolve(dotted(node.args[0]))
                if owner and owner.split(".")[0] in RISKY_NAMESPACES:
                    attr = strings_in(node.args[1]) if len(node.args) > 1 else []
                    if not attr:
                        self.flag(node, "dynamic", f"takes an attribute of {owner} by a computed name, which this review cannot read")
                    elif not self.call_rules(node, f"{owner}.{attr[0]}") and attr[0] in ("__import__", "exec", "eval", "compile", "system", "popen"):
                        self.flag(node, "dynamic", f"takes {owner}.{attr[0]} by name")
            elif name in ("os.getenv", "os.environ.get", "os.environ.pop") and any(SECRET_NAME.search(t) for t in texts[:1]):
                self.flag(node, "credentials", f"reads the secret-like environment variable {texts[0]}")
            elif name in ("shutil.rmtree",) or (last == "rmtree"):
                self.flag(node, "delete", "deletes a whole directory tree (shutil.rmtree)")
            elif self.loops and (name in DELETE_CALLS or last in ("unlink", "remove") and name.startswith(("os.", "pathlib."))):
                self.flag(node, "delete", f"deletes files in a loop ({name})")
        if last == "unlink" and self.loops and not (name and name.startswith("os.")):
            self.flag(node, "delete", "deletes files in a loop (Path.unlink)")
        if last == "open":
            receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
            # Path("x").open("w"): the path is the receiver's, the mode the first argument.
            on_path = isinstance(receiver, ast.Call)
            paths = [s for a in receiver.args for s in strings_in(a)] if on_path else (strings_in(node.args[0]) if node.args else [])
            mode_args = node.args[0:1] if on_path else node.args[1:2]
            modes = [s for a in mode_args for s in strings_in(a)] + [s for k in node.keywords if k.arg == "mode" for s in strings_in(k.value)]
            outside = [p for p in paths if outside_workspace(p)]
            if modes and WRITE_MODE.search(modes[0]) and outside:
                self.flag(node, "write_outside", f"writes {outside[0]}, outside the workspace")
        elif last in WRITE_CALLS:
            receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
            if isinstance(receiver, ast.Call):
                texts += [s for a in receiver.args for s in strings_in(a)]
            outside = [t for t in texts if outside_workspace(t)]
            if outside:
                self.flag(node, "write_outside", f"{last} writes {outside[0]}, outside the workspace")


LOOPS = (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
HANDLERS = {
    ast.Import: Reviewer.visit_Import,
    ast.ImportFrom: Reviewer.visit_ImportFrom,
    ast.Subscript: Reviewer.visit_Subscript,
    ast.Constant: Reviewer.visit_Constant,
    ast.List: Reviewer.visit_List,
    ast.Tuple: Reviewer.visit_Tuple,
    ast.Call: Reviewer.visit_Call,
}


def review(code):
    """Findings of one cell. A breadth-first walk with a dispatch table (twice as fast as
    ast.NodeVisitor on a 500-line cell): statements are read in order, so an import's alias
    is known before the calls nested below later statements use it."""
    tree = ast.parse(code)
    reviewer = Reviewer()
    queue = deque([(tree, 0)])
    while queue:
        node, loops = queue.popleft()
        handler = HANDLERS.get(type(node))
        if handler is not None:
            reviewer.loops = loops
            handler(reviewer, node)
        inner = loops + 1 if isinstance(node, LOOPS) else loops
        for child in ast.iter_child_nodes(node):
            queue.append((child, inner))
    seen = set()
    unique = []
    for f in reviewer.findings:
        key = (f["line"], f["rule"])
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return sorted(unique, key=lambda f: f["line"])


def main():
    for raw in sys.stdin:
        raw = raw.strip()
        if not raw:
            continue
        request_id = None
        try:
            request = json.loads(raw)
            request_id = request.get("id")
            answer = {"id": request_id, "ok": True, "findings": review(request["code"])}
        except SyntaxError as error:
            answer = {"id": request_id, "ok": False, "error": f"SyntaxError: {error.msg} (line {error.lineno})"}
        except Exception as error:  # the host falls back to its token scan, and says why
            answer = {"id": request_id, "ok": False, "error": f"{type(error).__name__}: {error}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
