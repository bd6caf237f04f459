import type { KernelLanguage } from '../../../src-preload/contract/kernel';
import type { KernelVariable } from '../../../src-preload/contract/notebook';

/**
 * The variables view's introspection cell: it lists the kernel's global names with their
 * type, shape and a short plain-text preview, one tab-separated line each behind a
 * marker, and leaves nothing behind in the namespace. Modules, functions and classes are
 * left out (they are not data); so are private names and the host SDK.
 */

const MARKER = '\u0002OPENAI4S_VAR';
/** Names at most; a namespace with more shows the first ones alphabetically. */
const MAX_VARIABLES = 200;

const PYTHON = String.raw`def _openai4s_variables():
    import reprlib, types
    short = reprlib.Repr()
    short.maxstring, short.maxother, short.maxlist, short.maxdict = 120, 120, 8, 8
    clean = lambda text: " ".join(str(text).split())[:160]
    shown = 0
    g = globals()
    for name in sorted(g):
        if name.startswith("_") or name in ("host", "HostError", "In", "Out", "exit", "quit", "get_ipython"):
            continue
        value = g[name]
        if isinstance(value, (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType, type)):
            continue
        kind = type(value).__name__
        shape = getattr(value, "shape", None)
        if isinstance(shape, tuple):
            shape = " x ".join(str(d) for d in shape)
        else:
            try:
                shape = "len %d" % len(value)
            except Exception:
                shape = ""
        try:
            if kind == "DataFrame":
                preview = "columns: " + ", ".join(str(c) for c in list(value.columns)[:12])
            elif type(value).__module__ in ("builtins",):
                preview = short.repr(value)
            else:
                preview = repr(value)
        except Exception as exc:
            preview = "<repr failed: %s>" % type(exc).__name__
        print("\x02OPENAI4S_VAR\t%s\t%s\t%s\t%s" % (name, clean(kind), clean(shape), clean(preview)))
        shown += 1
        if shown >= ${MAX_VARIABLES}:
            break
_openai4s_variables()
del _openai4s_variables
`;

const R = String.raw`local({
  clean <- function(x) substr(gsub("[[:space:]]+", " ", paste(x, collapse = " ")), 1, 160)
  names <- ls(globalenv())
  shown <- 0
  for (n in names) {
    v <- get(n, envir = globalenv())
    if (is.function(v) || is.environment(v)) next
    d <- dim(v)
    shape <- if (!is.null(d)) paste(d, collapse = " x ") else paste("len", length(v))
    preview <- if (is.data.frame(v)) paste("columns:", paste(utils::head(names(v), 12), collapse = ", ")) else
      tryCatch(utils::capture.output(utils::str(v, max.level = 1, give.attr = FALSE, vec.len = 3))[1], error = function(e) "")
    cat("\002OPENAI4S_VAR", n, clean(class(v)[1]), clean(shape), clean(preview), sep = "\t")
    cat("\n")
    shown <- shown + 1
    if (shown >= ${MAX_VARIABLES}) break
  }
})
`;

export function variablesSnippet(language: KernelLanguage): string {
  return language === 'python' ? PYTHON : R;
}

/** The variables the snippet printed (other output of the cell is ignored). */
export function parseVariables(stdout: string): KernelVariable[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith(`${MARKER}\t`))
    .map((line) => {
      const [, name = '', type = '', shape = '', ...preview] = line.split('\t');
      return { name, type, shape: shape || null, preview: preview.join(' ') };
    });
}
