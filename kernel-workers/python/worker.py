"""OpenAI4S Python kernel worker (stdlib only).

Protocol (DESIGN.md, Kernels): JSON lines. Frames to the host are written on fd 3,
frames from the host are read on fd 4. fd 1 and fd 2 stay the cell's own stdout and
stderr; the host captures them separately, so nothing a cell prints can forge a frame.

In:  execute {id, code, cell, marker, figures}, interrupt {id}, warmup {modules},
     host_response {id, result | error}, shutdown.
Out: ready, display {id, mime, data}, host_call {id, cell, method, args},
     result {id, ok, error?, usage}, warm {modules, ms}.
"""

import ast
import base64
import io
import json
import linecache
import os
import signal
import sys
import threading
import time
import traceback

try:
    import resource
except ImportError:  # not POSIX; usage then reports no peak RSS
    resource = None

_out = os.fdopen(3, "wb", buffering=0)
_in = os.fdopen(4, "rb", buffering=0)
_out_lock = threading.Lock()
_main_ident = threading.main_thread().ident


def send(frame):
    data = (json.dumps(frame, ensure_ascii=False, default=repr) + "\n").encode("utf-8", "surrogatepass")
    with _out_lock:
        _out.write(data)


class HostError(Exception):
    """A host call answered with an error (denied, failed, or not available yet)."""


# ---------------------------------------------------------------- host calls

_call_lock = threading.Lock()  # one host call in flight per worker (DESIGN.md)
_pending = {"id": None, "event": threading.Event(), "answer": None}
_call_seq = [0]
_state = {"cell": None}


def host_call(method, **args):
    if not isinstance(method, str) or not method:
        raise TypeError("host.call needs a method name, e.g. host.call('science.search', query='insulin')")
    with _call_lock:
        _call_seq[0] += 1
        call_id = _call_seq[0]
        event = threading.Event()
        _pending["id"], _pending["event"], _pending["answer"] = call_id, event, None
        send({"type": "host_call", "id": call_id, "cell": _state["cell"], "method": method, "args": args})
        try:
            # Event.wait is interruptible by SIGINT, so an interrupted cell does not hang here.
            event.wait()
        finally:
            _pending["id"] = None
        answer = _pending["answer"] or {}
    if "error" in answer and answer["error"] is not None:
        raise HostError("%s: %s" % (method, answer["error"]))
    return answer.get("result")


class _Namespace:
    def __init__(self, prefix):
        self._prefix = prefix

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        prefix = self._prefix + "." + name
        return lambda **args: host_call(prefix, **args)


class Host:
    """The `host` object of a cell: capability calls answered by the app, mid-cell."""

    HostError = HostError

    def __init__(self):
        self.science = _Namespace("science")

    def call(self, method, **args):
        return host_call(method, **args)

    def save_artifact(self, path, **args):
        return host_call("save_artifact", path=str(path), **args)

    def read_file(self, path):
        return host_call("read_file", path=str(path))

    def write_file(self, path, content):
        return host_call("write_file", path=str(path), content=content)

    def web_fetch(self, url, **args):
        return host_call("web_fetch", url=url, **args)

    def llm(self, prompt, **args):
        return host_call("llm", prompt=prompt, **args)

    def submit_output(self, **answer):
        return host_call("submit_output", **answer)

    def __repr__(self):
        return "<host: call(method, **args), science.*, save_artifact, read_file, write_file, web_fetch, llm, submit_output>"


# ---------------------------------------------------------------- interrupts

_running = threading.Event()


def _on_sigint(signum, frame):
    # Only a running cell is interrupted; a late interrupt between cells is dropped.
    if _running.is_set():
        raise KeyboardInterrupt()


def _interrupt_main():
    if _running.is_set():
        signal.pthread_kill(_main_ident, signal.SIGINT)


# ---------------------------------------------------------------- reader thread

_inbox = []
_inbox_cv = threading.Condition()


def _reader():
    for raw in _in:
        try:
            frame = json.loads(raw)
        except ValueError:
            continue
        kind = frame.get("type")
        if kind == "host_response":
            if frame.get("id") == _pending["id"]:
                _pending["answer"] = frame
                _pending["event"].set()
        elif kind == "interrupt":
            if frame.get("id") in (None, _state["cell"]):
                _interrupt_main()
        else:
            with _inbox_cv:
                _inbox.append(frame)
                _inbox_cv.notify()
    # The host closed fd 4: it is gone or shutting us down.
    with _inbox_cv:
        _inbox.append({"type": "shutdown"})
        _inbox_cv.notify()


def _next_frame():
    with _inbox_cv:
        while not _inbox:
            _inbox_cv.wait()
        return _inbox.pop(0)


# ---------------------------------------------------------------- execution

namespace = {"__name__": "__main__", "__builtins__": __builtins__, "host": Host(), "HostError": HostError}


def _usage(wall0, cpu0):
    usage = {"wall_ms": round((time.perf_counter() - wall0) * 1000, 3), "cpu_ms": round((time.process_time() - cpu0) * 1000, 3)}
    if resource is not None:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        usage["peak_rss_kb"] = peak // 1024 if sys.platform == "darwin" else peak
    return usage


def _cell_error(exc, filename):
    # Drop the worker's own frames (the cell runner, the host SDK): the user sees the
    # cell and what it called.
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename != __file__]
    lines = traceback.format_list(frames) + traceback.format_exception_only(type(exc), exc)
    if frames:
        lines.insert(0, "Traceback (most recent call last):\n")
    line = None
    if isinstance(exc, SyntaxError) and exc.filename == filename:
        line = exc.lineno
    for f in frames:
        if f.filename == filename:
            line = f.lineno
    return {"ename": type(exc).__name__, "evalue": str(exc), "traceback": "".join(lines), "line": line}


def _display_value(cell_id, value):
    if value is None:
        return
    html = getattr(value, "_repr_html_", None)
    data = {"text/plain": repr(value)}
    if callable(html):
        try:
            rendered = html()
            if isinstance(rendered, str):
                data["text/html"] = rendered
        except Exception:
            pass
    send({"type": "display", "id": cell_id, "data": data})


def _capture_figures(cell_id, close):
    # Figures exist only if the cell (or an earlier one) imported pyplot.
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return
    for num in list(plt.get_fignums()):
        fig = plt.figure(num)
        buf = io.BytesIO()
        try:
            fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
        except Exception as exc:
            send({"type": "display", "id": cell_id, "data": {"text/plain": "figure %s could not be rendered: %s" % (num, exc)}})
            continue
        send({"type": "display", "id": cell_id, "figure": num, "data": {"image/png": base64.b64encode(buf.getvalue()).decode("ascii")}})
        if close:
            plt.close(fig)


def _flush_std():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass


def _write_marker(marker):
    # Tells the host that everything this cell wrote on fd 1/2 before it has arrived.
    if marker:
        token = ("\x01%s\x01" % marker).encode("ascii")
        for fd in (1, 2):
            try:
                os.write(fd, token)
            except OSError:
                pass


def execute(frame):
    cell_id = frame.get("id")
    code = frame.get("code", "")
    filename = "<cell-%s>" % frame.get("cell", cell_id)
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
    _state["cell"] = cell_id
    wall0, cpu0 = time.perf_counter(), time.process_time()
    ok, error = True, None
    _running.set()
    try:
        tree = ast.parse(code, filename, "exec")
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr):
            last = ast.Expression(tree.body.pop().value)
        exec(compile(tree, filename, "exec"), namespace)
        if last is not None:
            value = eval(compile(last, filename, "eval"), namespace)
            _display_value(cell_id, value)
    except BaseException as exc:  # the cell's own SystemExit and KeyboardInterrupt included
        ok, error = False, _cell_error(exc, filename)
    try:
        _running.clear()
    except KeyboardInterrupt:
        _running.clear()
    figures = frame.get("figures")
    if figures:
        try:
            _capture_figures(cell_id, figures == "capture_and_close")
        except Exception as exc:
            send({"type": "display", "id": cell_id, "data": {"text/plain": "figures could not be captured: %s" % exc}})
    _flush_std()
    _write_marker(frame.get("marker"))
    _state["cell"] = None
    result = {"type": "result", "id": cell_id, "ok": ok, "usage": _usage(wall0, cpu0)}
    if error:
        result["error"] = error
    send(result)


def warmup(frame):
    t0 = time.perf_counter()
    done = []
    for name in frame.get("modules", []):
        try:
            __import__(name)
            done.append(name)
        except Exception:
            pass
    send({"type": "warm", "modules": done, "ms": round((time.perf_counter() - t0) * 1000, 3)})


def main():
    signal.signal(signal.SIGINT, _on_sigint)
    # Line buffering: progress reaches the host while a cell runs; the host coalesces.
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(line_buffering=True, errors="backslashreplace")
        except Exception:
            pass
    sys.argv = [""]
    threading.Thread(target=_reader, name="openai4s-reader", daemon=True).start()
    send({"type": "ready", "pid": os.getpid(), "language": "python", "version": "%d.%d.%d" % sys.version_info[:3], "executable": sys.executable})
    while True:
        try:
            frame = _next_frame()
            kind = frame.get("type")
            if kind == "execute":
                execute(frame)
            elif kind == "warmup":
                warmup(frame)
            elif kind == "shutdown":
                break
        except KeyboardInterrupt:
            continue  # an interrupt that arrived between cells
    _flush_std()
    os._exit(0)


if __name__ == "__main__":
    main()
