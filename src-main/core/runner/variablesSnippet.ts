import type { KernelLanguage } from '../../../src-preload/contract/kernel';
import type { KernelVariable } from '../../../src-preload/contract/notebook';

/**
 * The variables view's introspection cell: it lists the kernel's global names with their
 * type, shape and a short plain-text preview, one tab-separated line each behind a
 * marker, and leaves nothing behind in the namespace. Modules, functions and classes are
 * left out (they are not data); so are private names and the host SDK.
 *
 * The view reads after every cell, so one slow value must not hold the kernel: each value's
 * shape and preview get half a second (Python: a SIGALRM timer, the previous handler and timer
 * put back after; R: `setTimeLimit`) and the whole listing five; a value over its time shows as
 * such. (A preview stuck in C code ignores the timer; the listing's own limit then interrupts
 * the kernel.) R's active bindings are named, not read: reading one runs its function.
 */

const MARKER = '\u0002OPENAI4S_VAR';
/** Names at most; a namespace with more shows the first ones alphabetically. */
const MAX_VARIABLES = 200;
/** Seconds one Python value's shape and preview may take, and the whole listing. */
const VALUE_SECONDS = 0.5;
const LISTING_SECONDS = 5;

const PYTHON = String.raw`def _openai4s_variables():
    import reprlib, signal, time, types
    short = reprlib.Repr()
    short.maxstring, short.maxother, short.maxlist, short.maxdict = 120, 120, 8, 8
    clean = lambda text: " ".join(str(text).split())[:160]

    class Slow(BaseException):  # not an Exception: the except clauses around len() and repr() must not catch it
        pass

    def alarm(signum, frame):
        raise Slow()

    try:
        previous = signal.signal(signal.SIGALRM, alarm), signal.getitimer(signal.ITIMER_REAL)
    except (ValueError, OSError, AttributeError):
        previous = None  # not the main thread, or no SIGALRM here: no per-value bound
    ends = time.monotonic() + ${LISTING_SECONDS}

    def describe(value, kind):
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
        return shape, preview

    try:
        shown = 0
        g = globals()
        for name in sorted(k for k in g if isinstance(k, str)):  # globals() may be given other keys
            if name.startswith("_") or name in ("host", "HostError", "In", "Out", "exit", "quit", "get_ipython"):
                continue
            value = g[name]
            if isinstance(value, (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType, type)):
                continue
            if time.monotonic() > ends:
                break
            kind = type(value).__name__
            try:
                if previous:
                    signal.setitimer(signal.ITIMER_REAL, ${VALUE_SECONDS})
                try:
                    shape, preview = describe(value, kind)
                finally:
                    if previous:
                        signal.setitimer(signal.ITIMER_REAL, 0)
            except Slow:
                shape, preview = "", "<preview took too long>"
            print("\x02OPENAI4S_VAR\t%s\t%s\t%s\t%s" % (clean(name), clean(kind), clean(shape), clean(preview)))
            shown += 1
            if shown >= ${MAX_VARIABLES}:
                break
    finally:
        if previous:
            signal.signal(signal.SIGALRM, previous[0])
            if previous[1][0] > 0:
                signal.setitimer(signal.ITIMER_REAL, *previous[1])
_openai4s_variables()
del _openai4s_variables
`;

const R = String.raw`local({
  clean <- function(x) substr(gsub("[[:space:]]+", " ", paste(x, collapse = " ")), 1, 160)
  # Evaluated under a time limit that R checks between its own steps (a loop in R code stops; a
  # C call such as Sys.sleep ends first). The limit is lifted again whatever happens.
  bounded <- function(expr) {
    setTimeLimit(elapsed = ${VALUE_SECONDS}, transient = TRUE)
    on.exit(setTimeLimit(elapsed = Inf))
    expr
  }
  ends <- Sys.time() + ${LISTING_SECONDS}
  env <- globalenv()
  shown <- 0
  for (n in ls(env)) {
    if (Sys.time() > ends) break
    # Reading an active binding runs its function: it is named, not read.
    row <- if (bindingIsActive(n, env)) c("active binding", "", "") else {
      started <- Sys.time()
      late <- function() as.numeric(difftime(Sys.time(), started, units = "secs")) >= ${VALUE_SECONDS}
      kind <- ""  # the expression below runs in this environment: its assignments are seen here
      tryCatch(bounded({
        v <- get(n, envir = env)
        kind <- class(v)[1]
        if (is.function(v) || is.environment(v)) NULL else {
          d <- dim(v)
          shape <- if (!is.null(d)) paste(d, collapse = " x ") else paste("len", length(v))
          # A failing str() leaves the preview empty; the time limit, also an error, must not end there.
          preview <- if (is.data.frame(v)) paste("columns:", paste(utils::head(names(v), 12), collapse = ", ")) else
            tryCatch(utils::capture.output(utils::str(v, max.level = 1, give.attr = FALSE, vec.len = 3))[1],
                     error = function(e) if (late()) stop(e) else "")
          c(kind, shape, preview)
        }
      }), error = function(e) c(kind, "", if (late()) "<preview took too long>" else paste0("<preview failed: ", conditionMessage(e), ">")))
    }
    if (is.null(row)) next
    cat("\002OPENAI4S_VAR", clean(n), clean(row[1]), clean(row[2]), clean(row[3]), sep = "\t")
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
