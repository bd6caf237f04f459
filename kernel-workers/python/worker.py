"""OpenAI4S Python kernel worker (stdlib only).

Protocol (DESIGN.md, Kernels): JSON lines. Frames to the host are written on fd 3,
frames from the host are read on fd 4. fd 1 and fd 2 stay the cell's own stdout and
stderr; the host captures them separately, so nothing a cell prints can forge a frame.

In:  execute {id, code, cell, marker, figures}, interrupt {id}, warmup {modules},
     host_response {id, result | error}, shutdown.
Out: ready, display {id, data, figure?, title?}, host_call {id, cell, method, args},
     result {id, ok, error?, usage, outputs_drained?}, warm {modules, ms}.

Reading fd 4 (why there is no reader thread): the main thread reads fd 4 itself, in
large chunks, whenever it waits for something (the next frame between cells, the answer
to a host call). While a cell runs user code nobody is blocked on fd 4, so the kernel
tells us when a frame arrives: fd 4 is switched to O_ASYNC for the length of the cell,
SIGIO is directed at the main thread, and its handler drains fd 4 without blocking and
raises KeyboardInterrupt for an `interrupt` frame. A frame thus costs one read(2) and
no thread hand-off; the old reader thread read byte by byte and woke the main thread
through a condition variable for every frame.

Host-call bursts (why O_ASYNC goes quiet): with O_ASYNC on, every host answer would also
raise a SIGIO (signal generation in the host's write, delivery, a Python handler run and
an ioctl here), although the main thread is blocked reading that very answer. So the
first host call of the main thread turns O_ASYNC off and leaves it off for the calls that
follow; a small re-arm thread turns it back on once no host call has started for
_QUIET_S, and pokes the main thread to route whatever came meanwhile. An interrupt that
arrives while O_ASYNC is off is read by the next host call, or at the latest when the
re-arm thread wakes the main thread. In such a burst a host call also polls fd 4 for its
answer for up to _SPIN_S before it blocks (see _poll_briefly).
"""

import ast
import base64
import collections
import io
import json
import linecache
import os
import signal
import stat
import struct
import sys
import threading
import time
import traceback

try:
    import fcntl
    import termios
except ImportError:  # not POSIX: no async wake-ups, no drained-pipe shortcut
    fcntl = termios = None

try:
    import resource
except ImportError:  # not POSIX; usage then reports no peak RSS
    resource = None

_OUT, _IN = 3, 4
_out_lock = threading.Lock()
_main_ident = threading.main_thread().ident
# One encoder for every frame (json.dumps would build a new one per call).
_encoder = json.JSONEncoder(ensure_ascii=False, default=repr, separators=(",", ":"))
_scan = json.JSONDecoder().scan_once
# Host-call frames are built around their args: the args alone go through the encoder,
# used under _call_lock only (its circular-reference markers are shared).
_HOST_CALL = '{"type":"host_call","id":%d,"cell":%s,"method":%s,"args":%s}\n'
_json_str = json.encoder.encode_basestring  # not ASCII-escaped, like _encoder
_args_markers = {}
try:
    _args_chunks = json.encoder.c_make_encoder(_args_markers, repr, _json_str, None, ":", ",", False, False, True)
except (AttributeError, TypeError):  # no C accelerator: the general encoder
    _args_chunks = None


def _encode_args(args):
    if _args_chunks is None:
        return _encoder.encode(args)
    try:
        return "".join(_args_chunks(args, 0))
    except BaseException:
        _args_markers.clear()  # a failed encoding leaves its markers behind
        raise


_LINUX = sys.platform.startswith("linux")


def _write_all(fd, data):
    # A signal can cut a blocking write to a pipe short: finish the frame, never half of it.
    done = os.write(fd, data)
    if done < len(data):
        view = memoryview(data)
        while done < len(view):
            done += os.write(fd, view[done:])


class _Wire:
    """Main-thread state of the fd 4 reader; a signal handler checks it before touching fd 4."""

    busy = False  # the main thread is reading or parsing: the handler must not
    missed = False  # a SIGIO arrived while busy: drain once the main thread is done
    critical = 0  # a frame is being written: an interrupt waits until it is whole
    running = False  # user code of a cell is running: interrupts apply
    interrupt_for = None  # id of the cell an `interrupt` frame asked to stop
    eof = False
    partial = b""
    queue = collections.deque()  # execute / warmup / shutdown frames for the main loop
    async_flags = None  # fd 4's flags with and without O_ASYNC, when the kernel offers it
    quiet = False  # O_ASYNC is off in a running cell because its main thread makes host calls
    calls = 0  # host calls started by the main thread; the re-arm thread watches it move


def send(frame):
    _send_line((_encoder.encode(frame) + "\n").encode("utf-8", "surrogatepass"))


def _send_line(data):
    on_main = threading.get_ident() == _main_ident
    if on_main:
        _Wire.critical += 1
    try:
        with _out_lock:
            _write_all(_OUT, data)
    finally:
        if on_main:
            _Wire.critical -= 1
    if on_main and _take_interrupt():
        raise KeyboardInterrupt()


class HostError(Exception):
    """A host call answered with an error (denied, failed, or not available yet)."""


# ---------------------------------------------------------------- reading fd 4


def _available():
    if termios is None:
        return 0
    return struct.unpack("i", fcntl.ioctl(_IN, termios.FIONREAD, b"\0\0\0\0"))[0]


def _feed(chunk):
    if not chunk:
        _Wire.eof = True
        _Wire.queue.append({"type": "shutdown"})
        _answer_pending(None)
        return
    data = _Wire.partial + chunk if _Wire.partial else chunk
    start = 0
    while True:
        nl = data.find(b"\n", start)
        if nl < 0:
            break
        if nl > start:
            _route(data[start:nl])
        start = nl + 1
    _Wire.partial = data[start:]


def _route(line):
    try:
        # The host writes compact JSON: the scanner alone parses a whole line (json.loads
        # adds an encoding guess and a whitespace pass); anything else takes the long way.
        text = line.decode("utf-8")
        frame, end = _scan(text, 0)
        if end != len(text):
            frame = json.loads(text)
    except (ValueError, StopIteration):
        try:
            frame = json.loads(line)
        except ValueError:
            return
    if not isinstance(frame, dict):
        return
    kind = frame.get("type")
    if kind == "host_response":
        if frame.get("id") == _pending["id"]:
            _answer_pending(frame)
    elif kind == "interrupt":
        target = frame.get("id")
        if target is None:
            target = _state["cell"]  # "whatever runs now"; between cells: nothing
        if target is not None:
            _Wire.interrupt_for = target
    else:
        _Wire.queue.append(frame)


def _read_unless(done):
    """Blocks on fd 4 once, unless done() already holds, and routes the frames read.

    done() is checked with `busy` set: a SIGIO handler that ran just before (at the call
    boundary, say) may already have read what we wait for, and from here on no handler
    can read anything, so the blocking read never waits for bytes already consumed.
    """
    _Wire.busy = True
    try:
        if done():
            return
        _feed(os.read(_IN, 1 << 16))
    finally:
        _Wire.busy = False
    if _Wire.missed:
        _drain()


def _poll_briefly(done):
    """Main thread in a host-call burst: polls fd 4 for up to _SPIN_S before blocking.

    A quick answer is then read by a running process: the host's write wakes nobody (on
    a VM, waking an idle vCPU costs tens of microseconds, more than the call itself).
    sched_yield lets the host run when both share a CPU.
    """
    _Wire.busy = True
    try:
        deadline = _clock() + _SPIN_S
        while not done():
            n = _available()
            if n > 0:
                _feed(os.read(_IN, n))
            elif _clock() < deadline:
                _yield()
            else:
                break
    finally:
        _Wire.busy = False
    if _Wire.missed:
        _drain()


def _drain():
    """Routes whatever fd 4 holds now, without blocking (main thread, SIGIO handler)."""
    while True:
        _Wire.busy = True
        _Wire.missed = False
        try:
            n = _available()
            while n > 0:
                _feed(os.read(_IN, n))
                n = _available()
        finally:
            _Wire.busy = False
        if not _Wire.missed:
            return


def _take_interrupt():
    """True (once) when an interrupt asked for the running cell and raising is safe now."""
    if _Wire.running and _Wire.critical == 0 and _Wire.interrupt_for is not None and _Wire.interrupt_for == _state["cell"]:
        _Wire.interrupt_for = None
        return True
    return False


def _on_sigio(signum, frame):
    if _Wire.busy:
        _Wire.missed = True
        return
    _drain()
    if _take_interrupt():
        raise KeyboardInterrupt()


def _on_sigint(signum, frame):
    # Only a running cell is interrupted; a late interrupt between cells is dropped.
    if _Wire.running:
        if _Wire.critical:
            _Wire.interrupt_for = _state["cell"]  # raised once the frame being written is whole
        else:
            raise KeyboardInterrupt()


_SPIN_S = 100e-6  # how long a host call polls for its answer before it blocks
_clock = time.perf_counter
_yield = getattr(os, "sched_yield", lambda: None)
_flags_lock = threading.Lock()  # fd 4's O_ASYNC and _Wire.quiet change together
_QUIET_S = 0.01  # a host-call burst ends when no call has started for this long
_rearm_wake = threading.Event()
_rearm_thread = []


def _set_async(on):
    """O_ASYNC on fd 4 on or off (at a cell's start and end); ends a quiet stretch."""
    with _flags_lock:
        _Wire.quiet = False
        flags = _Wire.async_flags
        if flags is not None:
            fcntl.fcntl(_IN, fcntl.F_SETFL, flags[1] if on else flags[0])


def _go_quiet():
    """Main thread, first host call of a burst: no SIGIO per answer until the burst ends."""
    with _flags_lock:
        if not _Wire.running:
            return
        fcntl.fcntl(_IN, fcntl.F_SETFL, _Wire.async_flags[0])
        _Wire.quiet = True
    if not _rearm_thread:
        thread = threading.Thread(target=_rearm_loop, name="openai4s-rearm", daemon=True)
        _rearm_thread.append(thread)
        thread.start()
    _rearm_wake.set()


def _end_quiet():
    """O_ASYNC back on for the rest of the cell; the caller then gets fd 4 drained."""
    with _flags_lock:
        if not _Wire.quiet:
            return False
        _Wire.quiet = False
        fcntl.fcntl(_IN, fcntl.F_SETFL, _Wire.async_flags[1])
    return True


def _rearm_loop():
    sleep, kill, main = time.sleep, signal.pthread_kill, _main_ident
    while True:
        _rearm_wake.wait()
        _rearm_wake.clear()
        while _Wire.quiet:
            seen = _Wire.calls
            sleep(_QUIET_S)
            if _Wire.calls == seen and _end_quiet() and (_available() > 0 or _Wire.interrupt_for is not None):
                # Bytes that came while O_ASYNC was off raised no SIGIO: raise one (only
                # then: a signal cuts short a blocking call of the cell's C code).
                kill(main, signal.SIGIO)


def _setup_async():
    """O_ASYNC on fd 4 with SIGIO aimed at the main thread; a polling thread where unsupported."""
    signal.signal(signal.SIGIO, _on_sigio)
    if fcntl is not None:
        try:
            if _LINUX:
                # F_SETOWN_EX (15) with F_OWNER_TID (0): a blocking wait of the main
                # thread is woken even when other threads exist.
                fcntl.fcntl(_IN, 15, struct.pack("ii", 0, threading.get_native_id()))
            else:
                fcntl.fcntl(_IN, fcntl.F_SETOWN, os.getpid())
            base = fcntl.fcntl(_IN, fcntl.F_GETFL) & ~os.O_ASYNC
            _Wire.async_flags = (base, base | os.O_ASYNC)
            return
        except (OSError, AttributeError):
            pass
    threading.Thread(target=_poll_for_frames, name="openai4s-poll", daemon=True).start()


def _poll_for_frames():
    # Fallback only: without O_ASYNC, look at fd 4 while a cell runs and poke the main
    # thread with SIGIO; its handler does the reading, as with O_ASYNC.
    import select

    while True:
        if _Wire.running and not _Wire.busy:
            ready, _, _ = select.select([_IN], [], [], 0.05)
            if ready and _Wire.running and not _Wire.busy:
                signal.pthread_kill(_main_ident, signal.SIGIO)
                time.sleep(0.01)
        else:
            time.sleep(0.02)


# ---------------------------------------------------------------- host calls

_call_lock = threading.Lock()  # one host call in flight per worker (DESIGN.md)
_pending = {"id": None, "event": None, "answer": None}
_call_seq = [0]
_state = {"cell": None}


def _answer_pending(frame):
    if _pending["id"] is None:
        return
    _pending["answer"] = frame if frame is not None else {"error": "the host closed the connection"}
    event = _pending["event"]
    if event is not None:
        event.set()


def _answer_or_interrupt():
    return _pending["answer"] is not None or (_Wire.interrupt_for is not None and _Wire.interrupt_for == _state["cell"])


def host_call(method, **args):
    if not isinstance(method, str) or not method:
        raise TypeError("host.call needs a method name, e.g. host.call('science.search', query='insulin')")
    with _call_lock:
        _call_seq[0] += 1
        call_id = _call_seq[0]
        on_main = threading.get_ident() == _main_ident
        event = None if on_main else threading.Event()
        _pending["id"], _pending["event"], _pending["answer"] = call_id, event, None
        if on_main:
            _Wire.calls += 1
            if not _Wire.quiet and _Wire.running and _Wire.async_flags is not None:
                _go_quiet()
        elif _Wire.quiet and _end_quiet():
            # Another thread's answer is routed by the main thread's SIGIO handler.
            signal.pthread_kill(_main_ident, signal.SIGIO)
        try:
            if _Wire.eof:
                _answer_pending(None)
            else:
                cell = _state["cell"]
                line = _HOST_CALL % (call_id, "null" if cell is None else _json_str(cell), _json_str(method), _encode_args(args))
                _send_line(line.encode("utf-8", "surrogatepass"))
            if on_main:
                # The main thread reads the answer itself: one read(2), no thread hop. An
                # interrupt frame read meanwhile raises here, like SIGINT would.
                if _Wire.quiet:
                    _poll_briefly(_answer_or_interrupt)
                while _pending["answer"] is None:
                    if _take_interrupt():
                        raise KeyboardInterrupt()
                    _read_unless(_answer_or_interrupt)
                if _take_interrupt():
                    raise KeyboardInterrupt()  # read with the answer: nothing else would raise it
            else:
                # Another thread of the cell: the main thread's SIGIO handler routes the
                # answer to us; poke it in case the signal went elsewhere.
                while not event.wait(0.05):
                    signal.pthread_kill(_main_ident, signal.SIGIO)
        finally:
            _pending["id"], _pending["event"] = None, None
        answer = _pending["answer"] or {}
        _pending["answer"] = None
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

    def __repr__(self):
        return "<host: call(method, **args), science.*, skills.* (search, load, read_file, path, sidecar), save_artifact, read_file, write_file, web_fetch, llm, submit_output>"


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
    evalue = str(exc)
    hint = _limit_hint(exc)
    if hint:
        evalue = "%s (%s)" % (evalue, hint) if evalue else hint
        lines.append("%s\n" % hint)
    return {"ename": type(exc).__name__, "evalue": evalue, "traceback": "".join(lines), "line": line}


# The kernel's resource limits (kernel-workers/README.md) surface as these errors; say
# which limit was hit, so "Resource temporarily unavailable" is not a mystery.
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
        frame = {"type": "display", "id": cell_id, "figure": num, "data": {"image/png": base64.b64encode(buf.getvalue()).decode("ascii")}}
        title = _figure_title(fig)
        if title:
            frame["title"] = title
        send(frame)
        if close:
            plt.close(fig)


def _flush_std():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
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
            _Wire.running = True
            _set_async(True)
            # An interrupt may have arrived with, or right after, this execute frame.
            _drain()
            if _take_interrupt():
                raise KeyboardInterrupt()
            tree = ast.parse(code, filename, "exec")
            last = None
            if tree.body and isinstance(tree.body[-1], ast.Expr):
                last = ast.Expression(tree.body.pop().value)
            exec(compile(tree, filename, "exec"), namespace)
            if last is not None:
                value = eval(compile(last, filename, "eval"), namespace)
                _display_value(cell_id, value)
        finally:
            _Wire.running = False
    except BaseException as exc:  # the cell's own SystemExit and KeyboardInterrupt included
        _Wire.running = False
        ok, error = False, _cell_error(exc, filename)
    _set_async(False)
    _Wire.interrupt_for = None
    figures = frame.get("figures")
    if figures:
        try:
            _capture_figures(cell_id, figures == "capture_and_close")
        except Exception as exc:
            send({"type": "display", "id": cell_id, "data": {"text/plain": "figures could not be captured: %s" % exc}})
    _flush_std()
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


def _queued():
    return bool(_Wire.queue)


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


def _next_frame():
    while not _Wire.queue:
        _read_unless(_queued)
    return _Wire.queue.popleft()


def main():
    signal.signal(signal.SIGINT, _on_sigint)
    _setup_async()
    # Line buffering: progress reaches the host while a cell runs; the host coalesces.
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(line_buffering=True, errors="backslashreplace")
        except Exception:
            pass
    sys.argv = [""]
    _seed_matplotlib_config()
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
