/**
 * The spawner: a small Python process (stdlib only, `python3 -I -S -c`) that starts the
 * sandbox's processes (bwrap, bindfs, fusermount) for the app. Why: Node has no vfork;
 * its spawn forks the whole app, and on this project's VMs copying a 100-250 MB main
 * process's page tables blocks the main thread 8-16 ms a spawn (a kernel's cold start
 * spawns three times). The spawner is small and uses `posix_spawn` (vfork): about 0.5 ms.
 *
 * Wire: JSON lines. Node -> spawner on its stdin:
 *   {op: "spawn", id, file, args, env, setsid, fds}   fds[i] says what the child's fd i is:
 *       "ignore" (/dev/null), "read" (a pipe the child reads), "write" (a pipe the child
 *       writes), or {fd: n} (what the app's fd n names, passed as an O_PATH descriptor)
 *   {op: "opened", id}   the app has opened its ends of request id's pipes
 * spawner -> Node on its stdout:
 *   {op: "ready", pid}
 *   {op: "spawned", id, pid, pipes: {i: fd}}   the app opens /proc/<spawner>/fd/<fd>
 *   {op: "failed", id, code, message, stage}   stage "fds": the app's descriptors were out of
 *       reach (nothing started: the app then spawns by itself from now on); "exec": the file
 *       could not be started
 *   {op: "exit", pid, code, signal}
 * Pipes, not socket pairs: only a pipe can be opened again through /proc. The spawner
 * keeps the app's ends until the app says it opened them, so nothing a child writes
 * before that is lost. When the app goes (its end of stdin closes, even on kill -9), the
 * spawner kills every child it started (each child's process group when it has one) and
 * exits; bwrap's --die-with-parent then holds for the sandbox as before.
 */
export const SPAWNER_SOURCE = String.raw`
import errno, fcntl, json, os, selectors, signal

APP = os.getppid()
FLOOR = 64  # the spawner's own descriptors sit above every child fd number it maps
children = {}  # pid -> whether it leads its own process group
held = {}  # request id -> the app's pipe ends, closed once the app has opened its own
DEFAULTS = {s for s in signal.valid_signals() if s not in (signal.SIGKILL, signal.SIGSTOP)}


def reply(message):
    data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
    while data:
        data = data[os.write(1, data):]


def lift(fd):
    # Above every target number: a dup2 into the child can never overwrite a source.
    high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, FLOOR)
    os.close(fd)
    return high


def spawn(req):
    sources, mine, actions = [], {}, []
    try:
        if len(req["fds"]) >= FLOOR:
            raise OSError(errno.EMFILE, "too many descriptors for the child")
        for i, spec in enumerate(req["fds"]):
            if spec == "ignore":
                actions.append((os.POSIX_SPAWN_OPEN, i, "/dev/null", os.O_RDWR, 0))
            elif spec in ("read", "write"):
                r, w = os.pipe()
                r, w = lift(r), lift(w)
                child, app = (r, w) if spec == "read" else (w, r)
                sources.append(child)
                mine[str(i)] = app
                actions.append((os.POSIX_SPAWN_DUP2, child, i))
            else:
                try:
                    fd = lift(os.open("/proc/%d/fd/%d" % (APP, spec["fd"]), os.O_PATH | os.O_CLOEXEC))
                except OSError as e:
                    # The app's descriptors are out of reach (a process that is not dumpable):
                    # nothing was started, and the app spawns it itself.
                    e.stage = "fds"
                    raise
                sources.append(fd)
                actions.append((os.POSIX_SPAWN_DUP2, fd, i))
        pid = os.posix_spawn(req["file"], req["args"], req["env"], file_actions=actions, setsid=bool(req.get("setsid")), setsigdef=DEFAULTS)
    except OSError as e:
        for fd in mine.values():
            os.close(fd)
        code = errno.errorcode.get(e.errno or 0, "EIO")
        reply({"op": "failed", "id": req["id"], "code": code, "message": e.strerror or str(e), "stage": getattr(e, "stage", "exec")})
        return
    finally:
        for fd in sources:
            os.close(fd)
    children[pid] = bool(req.get("setsid"))
    held[req["id"]] = list(mine.values())
    reply({"op": "spawned", "id": req["id"], "pid": pid, "pipes": mine})


def reap():
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        children.pop(pid, None)
        if os.WIFSIGNALED(status):
            reply({"op": "exit", "pid": pid, "code": None, "signal": signal.Signals(os.WTERMSIG(status)).name})
        elif os.WIFEXITED(status):
            reply({"op": "exit", "pid": pid, "code": os.WEXITSTATUS(status), "signal": None})


def leave():
    for pid, group in children.items():
        try:
            os.killpg(pid, signal.SIGKILL) if group else os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    os._exit(0)


def main():
    os.chdir("/")
    # Whatever the app inherited and passed on stays out of the sandboxes.
    os.closerange(3, 1 << 16)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal's Ctrl-C is the app's to handle
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    sel = selectors.DefaultSelector()
    sel.register(0, selectors.EVENT_READ)
    sel.register(wake_r, selectors.EVENT_READ)
    reply({"op": "ready", "pid": os.getpid()})
    partial = b""
    while True:
        for key, _ in sel.select():
            if key.fd == wake_r:
                os.read(wake_r, 4096)
                reap()
                continue
            chunk = os.read(0, 1 << 16)
            if not chunk:
                leave()
            lines = (partial + chunk).split(b"\n")
            partial = lines.pop()
            for line in lines:
                req = json.loads(line)
                if req["op"] == "spawn":
                    spawn(req)
                elif req["op"] == "opened":
                    for fd in held.pop(req["id"], []):
                        os.close(fd)
        reap()


try:
    main()
except BrokenPipeError:
    leave()
`;
