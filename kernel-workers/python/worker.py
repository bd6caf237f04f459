"""OpenAI4S Python kernel worker (stdlib only).

Protocol (DESIGN.md, Kernels): JSON lines. Frames to the host are written on fd 3,
frames from the host are read on fd 4, answers to host calls on fd 5. fd 1 and fd 2
stay the cell's own stdout and stderr; the host captures them separately, so nothing a
cell prints can forge a frame.

In:  execute {id, code, cell, marker, figures}, interrupt {id}, warmup {modules},
     shutdown (fd 4); host_response {id, result | error} (fd 5).
Out: ready, display {id, data, figure?, title?}, host_call {id, cell, method, args},
     result {id, ok, error?, usage, outputs_drained?}, warm {modules, ms}.

Reading fd 4: one reader thread reads it in large chunks and routes each frame:
interrupt to the main thread as a SIGINT (`signal.pthread_kill`, as the R worker's
reader does with `kill -INT`), anything else to the main loop. The main thread never
reads fd 4, so a cell that blocks or loops still hears an interrupt; its SIGINT handler
raises KeyboardInterrupt only when the interrupt names the cell that is running (a late
one for an earlier cell is dropped).

Reading fd 5: the thread that made a host call reads its answer itself, holding the
call lock (one call in flight). A hand-over from the reader thread would cost a thread
wake-up per call, which on a VM is tens of microseconds. An interrupt reaches a main
thread blocked there as the same SIGINT (the read is retried when the handler does not
raise, PEP 475).
"""

import sys

# The oldest Python this file runs on (MIN_KERNEL_PYTHON in src-main/core/config/
# kernelPython.ts): an older one says so as its last line of stderr, which the app shows
# as the reason the kernel could not start, instead of an ImportError further down.
if sys.version_info < (3, 7):
    sys.stderr.write(
        "Python %d.%d.%d (%s) is too old for the kernels: they need Python 3.7 or newer; choose another environment\n"
        % (sys.version_info[0], sys.version_info[1], sys.version_info[2], sys.executable)
    )
    sys.exit(78)

import _ast
import binascii
import io
import json
import linecache
import os
import signal
import stat
import struct
import threading
import time

try:
    import fcntl
    import termios
except ImportError:  # not POSIX: always write the end marker
    fcntl = termios = None

try:
    import resource
except ImportError:  # not POSIX; usage then reports no peak RSS
    resource = None

# A kernel's start is on the user's wait (its first cell): modules only some cells need
# (traceback for an error, ast's Python half) are not imported here; `_queue` is the C
# module `queue` wraps, without the rest of `queue`'s imports.
try:
    from _queue import SimpleQueue
except ImportError:  # an interpreter without it
    from queue import SimpleQueue

_OUT, _IN, _ANSWERS = 3, 4, 5
# This file's name in its own frames: its path, or the one it was compiled under when the
# kernel runs its cached bytecode (`__file__` then names the .pyc).
_WORKER_FILE = sys._getframe().f_code.co_filename
_out_lock = threading.Lock()
_main_ident = threading.main_thread().ident
# The worker's own process: a process a cell forks (os.fork, multiprocessing) is not the
# worker, and must neither answer for a cell nor share the worker's host-call pipes.
_WORKER_PID = os.getpid()
# Set in a child forked by os.fork (multiprocessing, os.forkpty): host_call checks this flag
# instead of paying a getpid system call per call (a few microseconds inside the sandbox).
_FORKED = [False]
os.register_at_fork(after_in_child=lambda: _FORKED.__setitem__(0, True))  # Python 3.7+, as the worker requires
_encoder = json.JSONEncoder(ensure_ascii=False, default=repr, separators=(",", ":"))
# A host call's arguments: NaN and infinity have no JSON form (the host would drop the line
# and the call would wait for ever), and a frame over the host's 64 MiB line limit ends the kernel.
_call_encoder = json.JSONEncoder(ensure_ascii=False, default=repr, separators=(",", ":"), allow_nan=False)
_MAX_CALL_BYTES = 48 << 20
_LINUX = sys.platform.startswith("linux")

_state = {"cell": None}  # the cell being executed, None between cells
_frames = SimpleQueue()  # execute / warmup / shutdown frames for the main loop
_answer_buf = bytearray()  # fd 5 read so far and not yet taken (under _call_lock)


class _Cell:
    """What the SIGINT handler needs to decide whether to raise (main thread and reader)."""

    running = False  # its user code is running: an interrupt applies
    interrupt_for = None  # the cell an `interrupt` frame asked to stop
    sending = 0  # the main thread is writing a frame: an interrupt waits until it is whole


def _write_all(fd, data):
    # A signal can cut a blocking write to a pipe short: finish the frame, never half of it.
    done = os.write(fd, data)
    if done < len(data):
        view = memoryview(data)
        while done < len(view):
            done += os.write(fd, view[done:])


def send(frame):
    _send_line((_encoder.encode(frame) + "\n").encode("utf-8", "surrogatepass"))


def _send_line(data):
    on_main = threading.get_ident() == _main_ident
    if on_main:
        _Cell.sending += 1
    try:
        with _out_lock:
            _write_all(_OUT, data)
    finally:
        if on_main:
            _Cell.sending -= 1
    if on_main and _take_interrupt():
        raise KeyboardInterrupt()


class HostError(Exception):
    """A host call answered with an error (denied, failed, or not available yet)."""


# ---------------------------------------------------------------- reading fd 4


def _read_frames():
    """The reader thread: fd 4 in large chunks, each line routed as soon as it is whole."""
    partial = b""
    while True:
        try:
            chunk = os.read(_IN, 1 << 16)
        except OSError:
            chunk = b""
        if not chunk:
            _frames.put({"type": "shutdown"})
            return
        lines = (partial + chunk).split(b"\n")
        partial = lines.pop()
        for line in lines:
            if line:
                _route(line)


def _route(line):
    try:
        frame = json.loads(line)
    except (ValueError, RecursionError):  # the reader thread must outlive any line
        return
    if not isinstance(frame, dict):
        return
    kind = frame.get("type")
    if kind == "interrupt":
        target = frame.get("id")
        if target is None:
            target = _state["cell"]  # "whatever runs now"; between cells: nothing
        if target is not None:
            _Cell.interrupt_for = target
            signal.pthread_kill(_main_ident, signal.SIGINT)
    else:
        _frames.put(frame)


def _take_interrupt():
    """True (once) when an interrupt asked for the running cell and raising is safe now."""
    if _Cell.running and not _Cell.sending and _Cell.interrupt_for is not None and _Cell.interrupt_for == _state["cell"]:
        _Cell.interrupt_for = None
        return True
    return False


def _on_sigint(signum, frame):
    # Deferred while a frame is being written: send() raises once the frame is whole.
    if _take_interrupt():
        raise KeyboardInterrupt()


# ---------------------------------------------------------------- a short time slice

# sched_setattr's number (x86_64's table; aarch64 uses the generic one). `os` has no wrapper.
_SCHED_SETATTR = {"x86_64": 314, "aarch64": 274}
_SHORT_SLICE_NS = 100_000  # the shortest slice Linux grants (0.1 ms)
# sched_getscheduler's bit for "children and new threads start with the default slice", and
# the flag that sets it: threads and processes a cell starts must not inherit the short one.
# Linux lets only a privileged thread clear it again, so it stays set once asked for (a
# child then starts at the default slice and policy, and its nice value is kept).
_RESET_ON_FORK = 0x40000000
_FLAG_RESET_ON_FORK = 0x01
_slice = threading.local()  # .short: this thread has asked for the short slice
_setattr = []  # [(syscall, number, ctypes)] once looked up, [None] where not possible


def _sched_slice(ns):
    """Asks Linux (6.12+, EEVDF) for a time slice of `ns` for this thread (0: the default).

    A woken thread whose slice is shorter than the running thread's preempts it at once. A
    cell waiting for a host call's answer sleeps; with the default slice, when the answer
    wakes it on a CPU where another thread runs (the app's audit writer, say, while the
    other CPU is idle), it waits until that thread's slice ends, 1-4 ms on the 2-vCPU bench
    VM. Older kernels ignore the field; elsewhere nothing is done. See README.md.
    """
    if not _setattr:
        found = None
        nr = _SCHED_SETATTR.get(os.uname().machine) if _LINUX else None
        if nr:
            try:
                import ctypes  # only a cell that makes host calls pays for the import (~3 ms)

                found = (ctypes.CDLL(None, use_errno=True).syscall, nr, ctypes)
            except Exception:
                pass
        _setattr.append(found)
    if _setattr[0] is None:
        return False
    syscall, nr, ctypes = _setattr[0]
    try:
        policy = os.sched_getscheduler(0) & ~_RESET_ON_FORK
        if policy not in (os.SCHED_OTHER, os.SCHED_BATCH):
            return False
        # struct sched_attr as first defined (48 bytes): size, policy, flags, nice, priority,
        # runtime (a fair thread's slice request), deadline, period. The nice value is set by
        # the same call, so the thread's own is passed back.
        nice = os.getpriority(os.PRIO_PROCESS, 0)
        attr = ctypes.create_string_buffer(struct.pack("IIQiIQQQ", 48, policy, _FLAG_RESET_ON_FORK, nice, 0, ns, 0, 0), 48)
        return syscall(nr, 0, attr, 0) == 0
    except Exception:
        return False


def _short_slice():
    """Before a host call: the calling thread asks for the short slice, once."""
    if not getattr(_slice, "short", False):
        _slice.short = True
        _sched_slice(_SHORT_SLICE_NS)


def _default_slice():
    """After a cell: a thread that asked for the short slice goes back to the default."""
    if getattr(_slice, "short", False):
        _slice.short = False
        _sched_slice(0)


# ---------------------------------------------------------------- host calls

_call_lock = threading.Lock()  # one host call in flight per worker (DESIGN.md)
_call_seq = [0]


def _next_answer():
    """The next host_response frame on fd 5 (the caller holds _call_lock); None once the host has gone."""
    while True:
        nl = _answer_buf.find(b"\n")
        if nl >= 0:
            line = bytes(_answer_buf[:nl])
            del _answer_buf[: nl + 1]
            try:
                frame = json.loads(line)
            except (ValueError, RecursionError):
                # Only the tail of an answer whose read an interrupt cut off can be broken.
                continue
            if isinstance(frame, dict):
                return frame
            continue
        try:
            chunk = os.read(_ANSWERS, 1 << 16)  # a SIGINT that raises ends the call here
        except OSError:
            chunk = b""
        if not chunk:
            return None
        _answer_buf.extend(chunk)


def host_call(method, **args):
    if not isinstance(method, str) or not method:
        raise TypeError("host.call needs a method name, e.g. host.call('science.search', query='insulin')")
    if _FORKED[0]:
        raise HostError("%s: host calls are made from the cell's own process, not from one it forked (os.fork, multiprocessing); threads work" % method)
    _short_slice()
    with _call_lock:
        _call_seq[0] += 1
        call_id = _call_seq[0]
        try:
            line = _call_encoder.encode({"type": "host_call", "id": call_id, "cell": _state["cell"], "method": method, "args": args})
        except ValueError as exc:
            why = "an argument contains itself" if "ircular" in str(exc) else "NaN and infinity have no JSON form: pass None or a string instead"
            raise HostError("%s: its arguments cannot be sent (%s)" % (method, why))
        data = (line + "\n").encode("utf-8", "surrogatepass")
        if len(data) > _MAX_CALL_BYTES:
            raise HostError("%s: its arguments are %.1f MiB; a host call carries at most %d MiB: write the data to a file in the workspace and pass its path" % (method, len(data) / 1048576.0, _MAX_CALL_BYTES >> 20))
        _send_line(data)
        while True:
            answer = _next_answer()
            if answer is None:
                answer = {"error": "the host closed the connection"}
                break
            if answer.get("id") == call_id:
                break  # else the late answer of an interrupted call: dropped
    if answer.get("interrupted") is True and _Cell.running:
        # The cell was interrupted while this call was answered; the answer may come before
        # the reader thread has seen the interrupt frame, so the interrupt is raised here.
        _Cell.interrupt_for = None
        raise KeyboardInterrupt()
    if "error" in answer and answer["error"] is not None:
        raise HostError("%s: %s" % (method, answer["error"]))
    return answer.get("result")


class _Namespace:
    """A host method path: `host.compute.submit(...)` calls "compute.submit"; any depth."""

    def __init__(self, prefix):
        self._prefix = prefix

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return _Namespace(self._prefix + "." + name)

    def __call__(self, **args):
        return host_call(self._prefix, **args)

    def __repr__(self):
        return "<host method %s>" % self._prefix


class _Skills(_Namespace):
    """host.skills: search/load/read_file go to the app; path and sidecar use the folder
    mounted read-only for this kernel (sandbox: /opt/openai4s/skills/<name>; without a
    sandbox, the host folder itself)."""

    def __init__(self):
        _Namespace.__init__(self, "skills")

    def _folders(self):
        try:
            return json.loads(os.environ.get("OPENAI4S_SKILLS") or "{}")
        except ValueError:
            return {}

    def path(self, name):
        folder = self._folders().get(name)
        if folder is None:
            raise HostError(
                "skills.path: skill %r is not available to this kernel (not enabled, or enabled after it "
                "started: restart the kernel to mount it)" % (name,)
            )
        return folder

    def load(self, name, **args):
        answer = host_call("skills.load", name=name, **args)
        if isinstance(answer, dict) and name in self._folders():
            answer["path"] = self.path(name)
            answer["path_is"] = (
                "the skill folder mounted read-only in the kernel sandbox"
                if os.environ.get("OPENAI4S_SKILLS_AT") == "sandbox"
                else "the skill folder on the host (no kernel sandbox: files are read in place, do not write there)"
            )
        return answer

    def sidecar(self, name):
        """Loads the skill (the run records its name, source and sha256), compile-checks its
        kernel.py and imports it as the module skill_<name> (also importable by that name)."""
        answer = host_call("skills.load", name=name) or {}
        sidecar = ((answer.get("output") or {}).get("skill") or {}).get("sidecar")
        if sidecar != "kernel.py":
            raise HostError(
                "skills.sidecar: skill %r has %s" % (name, "no kernel.py sidecar" if not sidecar else "an R sidecar (%s): use skill_sidecar(\"%s\") in an R cell" % (sidecar, name))
            )
        path = os.path.join(self.path(name), "kernel.py")
        with open(path, "r", encoding="utf-8") as handle:
            source = handle.read()
        try:
            code = compile(source, path, "exec")
        except SyntaxError as exc:
            raise HostError("skills.sidecar: %s/kernel.py does not compile: line %s: %s" % (name, exc.lineno, exc.msg))
        module_name = "skill_" + name.replace("-", "_")
        module = type(sys)(module_name)
        module.__file__ = path
        module.SKILL_DIR = os.path.dirname(path)
        previous = sys.modules.get(module_name)
        sys.modules[module_name] = module
        try:
            exec(code, module.__dict__)
        except BaseException:
            if previous is None:
                sys.modules.pop(module_name, None)
            else:
                sys.modules[module_name] = previous
            raise
        return module


class Host:
    """The `host` object of a cell: capability calls answered by the app, mid-cell."""

    HostError = HostError

    def __init__(self):
        self.science = _Namespace("science")
        self.skills = _Skills()

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

    def __getattr__(self, name):
        # Capabilities added by the app (host.remember, host.mcp.call, host.compute.submit, ...)
        # need no change here: the name is the method; the app answers or names the error.
        if name.startswith("_"):
            raise AttributeError(name)
        return _Namespace(name)

    def __repr__(self):
        return "<host: call(method, **args), science.*, skills.* (search, load, read_file, path, sidecar), save_artifact, read_file, write_file, web_fetch, llm, submit_output>"


# ---------------------------------------------------------------- execution

# The cells' globals are the `__main__` module's, as in a script or a notebook: a function a
# cell defines pickles by reference (multiprocessing.Pool.map). The worker's own module
# stays importable (and alive) under another name.
sys.modules["openai4s_worker"] = sys.modules.get("__main__")
_cells_module = type(sys)("__main__")
namespace = _cells_module.__dict__
namespace.update({"__builtins__": __builtins__, "host": Host(), "HostError": HostError})
sys.modules["__main__"] = _cells_module


def _usage(wall0, cpu0):
    usage = {"wall_ms": round((time.perf_counter() - wall0) * 1000, 3), "cpu_ms": round((time.process_time() - cpu0) * 1000, 3)}
    if resource is not None:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        usage["peak_rss_kb"] = peak // 1024 if sys.platform == "darwin" else peak
    return usage


def _cell_error(exc, filename):
    # Drop the worker's own frames (the cell runner, the host SDK): the user sees the
    # cell and what it called.
    import traceback  # only when a cell fails (see the imports above)

    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename != _WORKER_FILE]
    lines = traceback.format_list(frames) + traceback.format_exception_only(type(exc), exc)
    if frames:
        lines.insert(0, "Traceback (most recent call last):\n")
    line = None
    if isinstance(exc, SyntaxError) and exc.filename == filename:
        line = exc.lineno
    for f in frames:
        if f.filename == filename:
            line = f.lineno
    try:
        evalue = str(exc)
    except Exception as inner:  # an exception class whose __str__ fails (traceback says so too)
        evalue = "<its str() raised %s>" % type(inner).__name__
    hint = _limit_hint(exc)
    if hint:
        evalue = "%s (%s)" % (evalue, hint) if evalue else hint
        lines.append("%s\n" % hint)
    return {"ename": type(exc).__name__, "evalue": _cut(evalue), "traceback": _cut("".join(lines)), "line": line}


# The kernel's resource limits (kernel-workers/README.md) surface as these errors; say
# which limit was hit, so "Resource temporarily unavailable" is not a mystery.
def _described_error(exc, filename):
    # The cell's exception is the cell's object: whatever describing it raises, the cell
    # still ends with an error (before, a failing __str__ ended the worker itself).
    try:
        return _cell_error(exc, filename)
    except BaseException:
        try:
            name = str(type(exc).__name__)
        except BaseException:
            name = "Exception"
        return {"ename": name, "evalue": "<the error could not be described: its class or value raised when read>", "traceback": "", "line": None}


def _limit_hint(exc):
    import errno
    if isinstance(exc, MemoryError):
        return "the kernel's memory limit was reached (OPENAI4S_KERNEL_MEMORY_MB)"
    if not isinstance(exc, OSError):
        return None
    if exc.errno == errno.EAGAIN and isinstance(exc, BlockingIOError) and not exc.filename:
        return "too many processes: the kernel's process limit was reached (OPENAI4S_KERNEL_MAX_PROCESSES)"
    if exc.errno == errno.EFBIG:
        return "file too large: the kernel's file size limit was reached (OPENAI4S_KERNEL_FILE_SIZE_MB)"
    if exc.errno == errno.EMFILE:
        return "too many open files: the kernel's open file limit was reached (OPENAI4S_KERNEL_OPEN_FILES)"
    if exc.errno == errno.ENOSPC and str(exc.filename or "").startswith(("/tmp", "/dev/shm")):
        return "/tmp is full: the kernel's /tmp size limit was reached (OPENAI4S_KERNEL_TMP_MB)"
    return None


# A table the app renders itself (sortable, paged, copyable): the data of a pandas
# DataFrame or Series, never its HTML. Kept under the host's 64 KiB text cap.
TABLE_MIME = "application/vnd.openai4s.table+json"
_TABLE_MAX_BYTES = 56 * 1024
_TABLE_MAX_ROWS = 1000


def _table_cell(v):
    if hasattr(v, "item") and callable(v.item):  # a numpy scalar
        try:
            v = v.item()
        except Exception:
            pass
    if v is None or isinstance(v, bool):
        return v
    if isinstance(v, (int, float)):
        return None if v != v or v in (float("inf"), float("-inf")) else v
    return str(v)[:200]


def _table_json(value):
    # Duck-typed on pandas (never imported here): a cell that returns a DataFrame has pandas loaded.
    kind = type(value).__name__
    if not (type(value).__module__ or "").startswith("pandas") or kind not in ("DataFrame", "Series"):
        return None
    try:
        frame = value.to_frame() if kind == "Series" else value
        rows = min(len(frame), _TABLE_MAX_ROWS)
        while True:
            head = frame.head(rows)
            table = {
                "columns": [str(c) for c in head.columns],
                "dtypes": [str(t) for t in head.dtypes],
                "index": [str(i) for i in head.index],
                "rows": [[_table_cell(v) for v in row] for row in head.itertuples(index=False, name=None)],
                "total_rows": int(len(frame)),
            }
            text = json.dumps(table, ensure_ascii=False, allow_nan=False)
            if len(text.encode("utf-8")) <= _TABLE_MAX_BYTES:
                return text
            if rows <= 1:
                return None  # too wide even for one row: the text form stands alone
            rows //= 2
    except Exception:
        return None


# The host keeps 64 KiB of any one text (a value, its HTML, an error; runCell.ts
# DEFAULT_LIMITS.textBytes). A longer text is cut here, well above that, so the frame
# stays far under the host's 64 MiB line limit: `list(range(10**7))` as a cell's last
# line made a 78 MB frame, and the host killed the kernel for it.
_TEXT_MAX_CHARS = 128 * 1024
# The host saves no image over 16 MiB (DEFAULT_LIMITS.imageBytes): a larger PNG is not sent.
_IMAGE_MAX_BYTES = 16 * 1024 * 1024


def _cut(text):
    if len(text) <= _TEXT_MAX_CHARS:
        return text
    return "%s\n[... %d more characters not sent]" % (text[:_TEXT_MAX_CHARS], len(text) - _TEXT_MAX_CHARS)


def _rich(value, method):
    # A value's own _repr_*_ method (IPython's protocol), or None when it has none or fails.
    fn = getattr(value, method, None)
    if not callable(fn):
        return None
    try:
        return fn()
    except Exception:
        return None


def _png_bytes(png):
    # _repr_png_ gives bytes (PIL), base64 text (IPython 8's Image) or either with metadata.
    if isinstance(png, tuple) and png:
        png = png[0]
    if isinstance(png, str):
        try:
            png = binascii.a2b_base64(png)
        except (binascii.Error, ValueError):
            return None
    if isinstance(png, bytes) and png.startswith(b"\x89PNG") and len(png) <= _IMAGE_MAX_BYTES:
        return png
    return None


def _display_value(cell_id, value):
    if value is None:
        return
    png = _png_bytes(_rich(value, "_repr_png_"))  # an image (IPython's Image, a PIL image): saved as a figure is
    if png is not None:
        send({"type": "display", "id": cell_id, "data": {"image/png": binascii.b2a_base64(png, newline=False).decode("ascii")}})
        return
    html = getattr(value, "_repr_html_", None)
    markdown = _rich(value, "_repr_markdown_")  # IPython's Markdown: its text reads better than its repr
    data = {"text/plain": _cut(markdown if isinstance(markdown, str) else repr(value))}
    table = _table_json(value)
    if table is not None:
        data[TABLE_MIME] = table
    if callable(html):
        try:
            rendered = html()
            if isinstance(rendered, str):
                data["text/html"] = _cut(rendered)
        except Exception:
            pass
    send({"type": "display", "id": cell_id, "data": data})


# A figure title names the figure's file on the host; longer ones are cut (the host bounds it too).
_FIGURE_TITLE_MAX = 200


def _figure_title(fig):
    # The suptitle, else the first axes title (centre, left or right): what the figure shows.
    try:
        candidates = []
        if callable(getattr(fig, "get_suptitle", None)):  # matplotlib >= 3.8
            candidates.append(fig.get_suptitle())
        elif getattr(fig, "_suptitle", None) is not None:
            candidates.append(fig._suptitle.get_text())
        for ax in fig.get_axes():
            candidates.extend(ax.get_title(loc=loc) for loc in ("center", "left", "right"))
        for text in candidates:
            if isinstance(text, str) and text.strip():
                return text.strip()[:_FIGURE_TITLE_MAX]
    except Exception:
        pass
    return None


# The vector form of a figure, saved beside its PNG. No date and a fixed id salt, so the
# same figure gives the same bytes (an export's `openai4s reproduce` compares them).
_SVG_MAX_BYTES = 4 * 1024 * 1024


def _figure_svg(fig):
    try:
        import matplotlib

        buf = io.BytesIO()
        with matplotlib.rc_context({"svg.hashsalt": "openai4s"}):
            fig.savefig(buf, format="svg", dpi=100, bbox_inches="tight", metadata={"Date": None})
        if buf.tell() > _SVG_MAX_BYTES:
            return None  # a figure of very many points: the PNG stands alone
        return buf.getvalue().decode("utf-8")
    except Exception:
        return None


# The figure as PDF too (issue 25: save as PNG/SVG/PDF). No creation date, so the same
# figure gives the same bytes; base64 in the frame like the PNG.
_PDF_MAX_BYTES = 4 * 1024 * 1024


def _figure_pdf(fig):
    try:
        buf = io.BytesIO()
        fig.savefig(buf, format="pdf", dpi=100, bbox_inches="tight", metadata={"CreationDate": None})
        if buf.tell() > _PDF_MAX_BYTES:
            return None  # very many points: the PNG and SVG stand without it
        return binascii.b2a_base64(buf.getvalue(), newline=False).decode("ascii")
    except Exception:
        return None


def _close_all_figures():
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        try:
            plt.close("all")
        except Exception:
            pass


_MAX_FIGURES = 50  # saved per cell (each is drawn three times: PNG, SVG, PDF)


def _capture_figures(cell_id, close):
    # Figures exist only if the cell (or an earlier one) imported pyplot.
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return
    nums = list(plt.get_fignums())
    if len(nums) > _MAX_FIGURES:
        send({"type": "display", "id": cell_id, "data": {"text/plain": "%d figures open: the first %d are saved; save the others with savefig, or close figures you do not need (plt.close)" % (len(nums), _MAX_FIGURES)}})
        if close:
            for num in nums[_MAX_FIGURES:]:
                plt.close(num)
        nums = nums[:_MAX_FIGURES]
    for num in nums:
        fig = plt.figure(num)
        buf = io.BytesIO()
        try:
            fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
        except Exception as exc:
            send({"type": "display", "id": cell_id, "data": {"text/plain": "figure %s could not be rendered: %s" % (num, exc)}})
            continue
        if buf.tell() > _IMAGE_MAX_BYTES:
            send({"type": "display", "id": cell_id, "data": {"text/plain": "figure %s not saved: its PNG is %.1f MiB, over the %d MiB image limit; save it yourself with a lower dpi (fig.savefig(path, dpi=...))" % (num, buf.tell() / 1048576.0, _IMAGE_MAX_BYTES >> 20)}})
            if close:
                plt.close(fig)
            continue
        frame = {"type": "display", "id": cell_id, "figure": num, "data": {"image/png": binascii.b2a_base64(buf.getvalue(), newline=False).decode("ascii")}}
        svg = _figure_svg(fig)
        if svg is not None:
            frame["data"]["image/svg+xml"] = svg
        pdf = _figure_pdf(fig)
        if pdf is not None:
            frame["data"]["application/pdf"] = pdf
        title = _figure_title(fig)
        if title:
            frame["title"] = title
        send(frame)
        if close:
            plt.close(fig)


# plt.show() in a cell does what it does in a notebook: the figures drawn so far are saved
# then and closed. With a non-interactive backend it did nothing, so a loop of
# plot/title/show drew every group onto one figure, titled with the last group.
def _notebook_show(real_show):
    def show(*args, **kwargs):
        cell_id = _state["cell"]
        if cell_id is None or _FORKED[0]:
            return real_show(*args, **kwargs)
        _capture_figures(cell_id, True)

    show.__doc__ = real_show.__doc__
    show.__wrapped__ = real_show
    return show


def _patch_pyplot(module):
    if callable(getattr(module, "show", None)):
        module.show = _notebook_show(module.show)


def _patch_ipython_display(module):
    # Outside an IPython shell, IPython's display() prints each object's repr
    # ("<IPython.core.display.Markdown object>", a table as text): the kernel's shows them.
    if callable(getattr(module, "display", None)):
        module.display = _display


# No keyboard reaches a cell (its stdin is /dev/null): pdb.set_trace() printed a (Pdb)
# prompt, read end-of-file and raised BdbQuit, ending the cell. Its entry points are
# skipped with a note, as breakpoint() is (below), and the cell goes on; run() and its kin
# run their code without the debugger. A debugger given its own stdin (Pdb(stdin=...), a
# script of commands) is left alone, and so is the rest of the module.
_DEBUGGER_NOTE = "%s %s: no debugger can read a keyboard in a kernel cell; %s\n"


def _no_keyboard(debugger):
    # Without a stdin of its own, Cmd prompts with input(), which cannot read one here.
    return getattr(debugger, "use_rawinput", True) or getattr(debugger, "stdin", None) is sys.__stdin__


def _run_without(statement, globals=None, locals=None):
    exec(statement, namespace if globals is None else globals, locals)


def _runeval_without(expression, globals=None, locals=None):
    return eval(expression, namespace if globals is None else globals, locals)


def _runcall_without(func, *args, **kwds):
    return func(*args, **kwds)


_WITHOUT_DEBUGGER = {"run": _run_without, "runctx": _run_without, "runeval": _runeval_without, "runcall": _runcall_without}


def _debugger_entry(label, name, real):
    without = _WITHOUT_DEBUGGER.get(name)
    what = "skipped" if without is None else "ran its code without the debugger"
    instead = "print the traceback instead (traceback.print_exc())" if name in ("post_mortem", "pm") else "print the values you want to see"

    # These make their debugger without a stdin of its own: it can never read its commands.
    def entry(*args, **kwargs):
        sys.stderr.write(_DEBUGGER_NOTE % ("%s.%s()" % (label, name), what, instead))
        if without is not None:
            return without(*args, **kwargs)

    entry.__doc__ = real.__doc__
    entry.__wrapped__ = real
    entry._openai4s_no_keyboard = True
    return entry


def _patch_debugger(module):
    label = module.__name__.split(".")[0]
    for name in ("set_trace", "post_mortem", "pm", "run", "runeval", "runctx", "runcall"):
        real = getattr(module, name, None)
        # ipdb's package re-exports ipdb.__main__'s functions, already wrapped.
        if callable(real) and not getattr(real, "_openai4s_no_keyboard", False):
            setattr(module, name, _debugger_entry(label, name, real))
    debugger = module.__dict__.get("Pdb")
    if label == "pdb" and isinstance(debugger, type):
        # Pdb().set_trace(), and the debuggers built on Pdb (IPython's set_trace, doctest's).
        real_set_trace = debugger.set_trace

        def set_trace(self, frame=None, *args, **kwargs):
            if not _no_keyboard(self):
                return real_set_trace(self, sys._getframe(1) if frame is None else frame, *args, **kwargs)
            who = "pdb" if type(self) is debugger else type(self).__name__
            sys.stderr.write(_DEBUGGER_NOTE % ("%s.set_trace()" % who, "skipped", "print the values you want to see"))

        set_trace.__doc__ = real_set_trace.__doc__
        debugger.set_trace = set_trace


# Modules patched as they are imported, so the patch holds whenever the cell imports them.
_IMPORT_PATCHES = {
    "matplotlib.pyplot": _patch_pyplot,
    "IPython.display": _patch_ipython_display,
    "pdb": _patch_debugger,
    "ipdb.__main__": _patch_debugger,
    "ipdb": _patch_debugger,
}


class _PatchOnImport:
    """Runs a module's patch (_IMPORT_PATCHES) right after the module itself runs."""

    def find_spec(self, fullname, path=None, target=None):
        patch = _IMPORT_PATCHES.get(fullname)
        if patch is None:
            return None
        import importlib.machinery

        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        loader = getattr(spec, "loader", None)
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        real_exec = loader.exec_module

        def exec_module(module):
            real_exec(module)
            patch(module)

        loader.exec_module = exec_module  # this spec's own loader instance
        return spec


sys.meta_path.insert(0, _PatchOnImport())
for _name, _patch in _IMPORT_PATCHES.items():
    if _name in sys.modules:  # imported before the hook (by the interpreter's start-up)
        _patch(sys.modules[_name])


def _flush_std():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass


def _restore_std_streams():
    # A cell that set sys.stdout (or stderr) to its own object silenced every later cell
    # without a word; within the cell the object gets what it printed, after it the kernel's
    # stream is back, and the cell is told.
    for name in ("stdout", "stderr"):
        original = getattr(sys, "__%s__" % name)
        if original is not None and getattr(sys, name) is not original:
            setattr(sys, name, original)
            sys.__stderr__.write("sys.%s was replaced in this cell; the next cells print to the kernel's output again (use contextlib.redirect_%s for a block)\n" % (name, name))
    try:
        sys.__stderr__.flush()
    except Exception:
        pass


def _unread_request(fd):
    """The ioctl that counts bytes written on fd and not yet read by the host, if any."""
    if not _LINUX or termios is None:
        return None  # elsewhere these counts mean something else: always write the marker
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return None
    if stat.S_ISSOCK(mode):
        # Node's stdio "pipes" are socket pairs: SIOCOUTQ (= TIOCOUTQ) counts what we sent
        # that the peer has not consumed; the kernel frees it inside the peer's read(2).
        return termios.TIOCOUTQ
    if stat.S_ISFIFO(mode):
        return termios.FIONREAD  # on a Linux pipe it counts unread bytes from either end
    return None


# Decided once: a cell that later points fd 1 elsewhere gets an ioctl error (-> marker) or
# counts a channel the host never reads anyway.
_UNREAD = [(fd, _unread_request(fd)) for fd in (1, 2)]


_STD_PIPES = {}  # fd 1/2 -> (a private copy of the pipe, its (st_dev, st_ino))


def _keep_std_pipes():
    """At start: a copy of the stdout/stderr pipes, to put back after a cell that closed or
    redirected fd 1/2 (os.close(1), os.dup2(devnull, 2)). Without them the cell's end
    marker went nowhere and the host waited for it for ever."""
    for fd in (1, 2):
        try:
            st = os.fstat(fd)
            _STD_PIPES[fd] = (os.dup(fd), (st.st_dev, st.st_ino))  # not inherited by the cells' children
        except OSError:
            pass


def _restore_std_pipes():
    for fd, (copy, ident) in _STD_PIPES.items():
        try:
            st = os.fstat(fd)
            if (st.st_dev, st.st_ino) == ident:
                continue
        except OSError:
            pass  # closed by the cell
        try:
            os.dup2(copy, fd)
        except OSError:
            pass


def _outputs_drained():
    # Nothing unread on fd 1 and fd 2 means the host has already read everything written
    # before this point, and (being single-threaded) handed it to the cell before it can
    # read our next frame: no end marker is needed.
    try:
        for fd, request in _UNREAD:
            if request is None or struct.unpack("i", fcntl.ioctl(fd, request, b"\0\0\0\0"))[0] != 0:
                return False
    except OSError:
        return False
    return True


def _write_marker(marker):
    # Tells the host that everything this cell wrote on fd 1/2 before it has arrived.
    if marker:
        token = ("\x01%s\x01" % marker).encode("ascii")
        for fd in (1, 2):
            try:
                _write_all(fd, token)
            except OSError:
                pass


def _end_forked_child(exc):
    """A process the cell forked reached the end of the cell's code: it ends there, as the
    child of a script would, instead of answering for the cell as a second worker."""
    code = 0
    if isinstance(exc, SystemExit):
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if exc.code is not None and not isinstance(exc.code, int):
            sys.stderr.write("%s\n" % (exc.code,))
    elif exc is not None:
        tb = exc.__traceback__
        # From the cell's own line, not the worker's (execute, _run_code).
        while tb is not None and tb.tb_next is not None and tb.tb_frame.f_code.co_filename == _WORKER_FILE:
            tb = tb.tb_next
        exc.with_traceback(tb)
        sys.excepthook(type(exc), exc, exc.__traceback__)
        code = 1
    _flush_std()
    os._exit(code)


# Code pasted from a Jupyter notebook: `%matplotlib inline` is dropped (figures are saved
# after every cell anyway); another IPython magic or a shell escape is a SyntaxError that
# says what to write instead, not a bare "invalid syntax".
_MAGIC_HINTS = (
    (("%pip", "!pip", "%conda", "!conda"), "is an IPython command, not Python: install packages into an environment (the Environments panel, or openai4s env create)"),
    (("!",), "is an IPython shell escape, not Python: use subprocess.run(command, shell=True)"),
    (("%",), "is an IPython magic, not Python: this kernel runs plain Python"),
)


def _parse_cell(code, filename):
    lines = None
    while True:
        try:
            # ast.parse, without importing ast's Python half (see the imports above).
            return compile(code, filename, "exec", _ast.PyCF_ONLY_AST)
        except SyntaxError as exc:
            lines = lines or code.splitlines(True)
            if exc.filename != filename or not exc.lineno or exc.lineno > len(lines):
                raise
            text = lines[exc.lineno - 1].strip()
            if not text.startswith("%matplotlib"):
                for prefixes, hint in _MAGIC_HINTS:
                    if text.startswith(prefixes):
                        word = text[:40] if text.startswith("!") else text.split(None, 1)[0]
                        raise SyntaxError("%s %s" % (word, hint), (filename, exc.lineno, 1, lines[exc.lineno - 1])) from None
                raise
            # Only the line the parser refused: the same text inside a string stays.
            lines[exc.lineno - 1] = "\n"
            code = "".join(lines)


# `await` at a cell's top level, as a notebook allows (an async HTTP client, asyncio.gather):
# such code compiles to a coroutine, run to its end on a fresh event loop.
_TOP_LEVEL_AWAIT = getattr(_ast, "PyCF_ALLOW_TOP_LEVEL_AWAIT", 0)
_CO_COROUTINE = 0x80


def _run_code(code_obj):
    result = eval(code_obj, namespace)
    if code_obj.co_flags & _CO_COROUTINE:
        import asyncio

        result = asyncio.run(result)
    return result


def _display(*objs, **_options):
    """IPython's display(): each object shown as a cell's value is (notebook code calls it in loops)."""
    cell_id = _state.get("cell")
    if cell_id is None:
        return
    for value in objs:
        _display_value(cell_id, value)


if not hasattr(sys.modules["builtins"], "display"):
    sys.modules["builtins"].display = _display  # a builtin, as in a notebook: imported modules see it too


# No keyboard reaches a cell: input() said only "EOF when reading a line", and breakpoint()
# printed a (Pdb) prompt and raised BdbQuit.
def _input(prompt=""):
    raise EOFError("input() cannot read a keyboard in a kernel cell: set the value in the code instead")


def _breakpoint(*_args, **_kwargs):
    sys.stderr.write("breakpoint() skipped: no debugger can read a keyboard in a kernel cell; print the values you want to see\n")


sys.modules["builtins"].input = _input
sys.breakpointhook = _breakpoint


def execute(frame):
    cell_id = frame.get("id")
    code = frame.get("code", "")
    filename = "<cell-%s>" % frame.get("cell", cell_id)
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
    _state["cell"] = cell_id
    wall0, cpu0 = time.perf_counter(), time.process_time()
    ok, error = True, None
    try:
        try:
            _Cell.running = True
            # An interrupt may have arrived with this execute frame, its SIGINT handled
            # before the cell was running.
            if _take_interrupt():
                raise KeyboardInterrupt()
            tree = _parse_cell(code, filename)
            last = None
            if tree.body and isinstance(tree.body[-1], _ast.Expr):
                last = _ast.Expression(tree.body.pop().value)
            _run_code(compile(tree, filename, "exec", _TOP_LEVEL_AWAIT))
            if last is not None:
                value = _run_code(compile(last, filename, "eval", _TOP_LEVEL_AWAIT))
                _display_value(cell_id, value)
        finally:
            _Cell.running = False
    except BaseException as exc:  # the cell's own SystemExit and KeyboardInterrupt included
        _Cell.running = False
        if os.getpid() != _WORKER_PID:
            _end_forked_child(exc)
        ok, error = False, _described_error(exc, filename)
    if os.getpid() != _WORKER_PID:
        _end_forked_child(None)
    _Cell.interrupt_for = None
    _default_slice()
    figures = frame.get("figures")
    if figures:
        # Drawing figures can take long (a 50x50 grid of plots): an interrupt stops it, as
        # it stops the cell's own code, instead of finding nothing running and the kernel killed.
        try:
            _Cell.running = True
            _capture_figures(cell_id, figures == "capture_and_close")
        except KeyboardInterrupt:
            send({"type": "display", "id": cell_id, "data": {"text/plain": "figures not all saved: the cell was interrupted while they were drawn"}})
            if figures == "capture_and_close":
                _close_all_figures()  # else the next cell would save this one's
        except Exception as exc:
            send({"type": "display", "id": cell_id, "data": {"text/plain": "figures could not be captured: %s" % exc}})
        finally:
            _Cell.running = False
        _Cell.interrupt_for = None
    _flush_std()
    _restore_std_streams()
    _restore_std_pipes()
    drained = _outputs_drained()
    if not drained:
        _write_marker(frame.get("marker"))
    _state["cell"] = None
    result = {"type": "result", "id": cell_id, "ok": ok, "usage": _usage(wall0, cpu0)}
    if drained:
        result["outputs_drained"] = True
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


def _seed_matplotlib_config():
    """Copies the read-only cache's font list into this generation's MPLCONFIGDIR.

    The cache is shared by all sessions and read-only here; matplotlib reads its font
    list from its config dir and rewrites it there when fonts change, so it gets its own
    copy (about 80 KB) instead of a rebuild of a second or more at the first import.
    """
    src = os.environ.get("OPENAI4S_KERNEL_CACHE")
    dst = os.environ.get("MPLCONFIGDIR")
    if not src or not dst:
        return
    src = os.path.join(src, "matplotlib")
    try:
        names = os.listdir(src)
    except OSError:
        return
    for name in names:
        try:
            with open(os.path.join(src, name), "rb") as fin, open(os.path.join(dst, name), "xb") as fout:
                fout.write(fin.read())
        except OSError:
            pass


def main():
    signal.signal(signal.SIGINT, _on_sigint)
    threading.Thread(target=_read_frames, name="openai4s-reader", daemon=True).start()
    # Line buffering: progress reaches the host while a cell runs; the host coalesces.
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(line_buffering=True, errors="backslashreplace")
        except Exception:
            pass
    sys.argv = [""]
    _seed_matplotlib_config()
    _keep_std_pipes()
    send({"type": "ready", "pid": os.getpid(), "language": "python", "version": "%d.%d.%d" % sys.version_info[:3], "executable": sys.executable})
    while True:
        try:
            frame = _frames.get()
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
