"""openai4s_host: the `host` of an exported OpenAI4S notebook, outside the app and offline.

In OpenAI4S a cell calls the app through `host` (science searches, artifacts, files). An
export package records every answer the app gave a cell (reproduce/host_calls.jsonl), the
files the cells found in their workspace (reproduce/inputs.json) and every artifact version
(artifacts/). `Host(package_dir)` answers the same calls from those records, so the
notebook runs in plain Jupyter with no network and no app:

    import openai4s_host
    host = openai4s_host.Host(package_dir)

- A call is answered by the recorded call with the same method and the same arguments
  (in the order the session made them); a request the session never made raises
  HostError naming it, since this package has no live data.
- `save_artifact(path)` hashes the file the cell just wrote and says whether it matches
  the recorded version byte for byte; `host.saved` lists every comparison.
- `write_file` writes the file into the workspace; `submit_output` only prints.
- `artifact_path(path, version)` / `read_artifact(path, version)` read an exported version.

The cells run in `<package_dir>/workspace` (created, the recorded inputs copied into it),
as they ran in the session's workspace. Standard library only.
"""

import copy
import hashlib
import json
import os
import shutil
import sys

__all__ = ["Host", "HostError"]


class HostError(Exception):
    """A host call that failed in the session, or that this package cannot answer."""


# Host methods whose recorded tool name is not the method name with "." -> "_".
_ALIASES = {
    "read_file": ("read_text_file",),
    "skills.search": ("search_skills",),
    "skills.load": ("load_skill",),
    "skills.read_file": ("read_skill_file",),
}


def _canonical(value):
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _sha256_file(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _read_jsonl(path):
    if not os.path.exists(path):
        return []
    with open(path, "r", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _read_json(path, default):
    if not os.path.exists(path):
        return default
    with open(path, "r", encoding="utf-8") as handle:
        return json.load(handle)


class _Namespace:
    """A method path: `host.science.search(...)` calls "science.search"; any depth."""

    def __init__(self, host, prefix):
        self._host = host
        self._prefix = prefix

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return _Namespace(self._host, self._prefix + "." + name)

    def __call__(self, **args):
        return self._host.call(self._prefix, **args)

    def __repr__(self):
        return "<recorded host method %s>" % self._prefix


class Host:
    """Answers a notebook's host calls from the records of its export package."""

    HostError = HostError

    def __init__(self, package_dir=".", workspace=None, chdir=True, verbose=True):
        self.package_dir = os.path.abspath(package_dir)
        self._verbose = verbose
        reproduce = os.path.join(self.package_dir, "reproduce")
        if not os.path.exists(os.path.join(reproduce, "host_calls.jsonl")):
            raise HostError(
                "%s is not an unzipped OpenAI4S export (reproduce/host_calls.jsonl is missing); "
                "pass the folder the package was unzipped into" % self.package_dir
            )
        self._calls = _read_jsonl(os.path.join(reproduce, "host_calls.jsonl"))
        self._used = [False] * len(self._calls)
        self._artifacts = _read_json(os.path.join(self.package_dir, "artifacts", "index.json"), [])
        self.workspace = os.path.abspath(workspace or os.path.join(self.package_dir, "workspace"))
        self.saved = []
        self.science = _Namespace(self, "science")
        self.skills = _Namespace(self, "skills")
        staged = self._stage_inputs(_read_json(os.path.join(reproduce, "inputs.json"), []))
        if chdir:
            os.chdir(self.workspace)
        self._say(
            "openai4s_host: %d recorded host answers, %d artifact versions; %d input file(s) staged in %s"
            % (len(self._calls), len(self._artifacts), staged, self.workspace)
        )
        self._check_environment()

    # ------------------------------------------------------------ setup

    def _say(self, text):
        if self._verbose:
            print(text)

    def _inside(self, rel):
        target = os.path.abspath(os.path.join(self.workspace, rel))
        if os.path.commonpath([target, self.workspace]) != self.workspace:
            raise HostError("%r is outside the workspace" % rel)
        return target

    def _stage_inputs(self, inputs):
        os.makedirs(self.workspace, exist_ok=True)
        staged = 0
        for item in inputs:
            source = item.get("file")
            if not source:
                self._say("openai4s_host: input %s is not in this package: %s" % (item.get("path"), item.get("missing", "not exported")))
                continue
            source = os.path.join(self.package_dir, source)
            target = self._inside(item["path"])
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(source, target)
            if item.get("sha256") and _sha256_file(target) != item["sha256"]:
                raise HostError("input %s does not match its recorded sha256 (the package was changed)" % item["path"])
            staged += 1
        return staged

    def _check_environment(self):
        """Says which imported packages differ from the versions the session recorded."""
        generations = _read_json(os.path.join(self.package_dir, "ledger", "kernel_generations.json"), [])
        try:
            from importlib import metadata
        except ImportError:  # Python < 3.8
            return
        seen = set()
        for generation in generations:
            lock = generation.get("environmentLock") or {}
            if lock.get("language") != "python":
                continue
            for package in lock.get("imported") or []:
                name = package.get("distribution") or package.get("module")
                recorded = package.get("version")
                if not name or not recorded or name in seen:
                    continue
                seen.add(name)
                try:
                    installed = metadata.version(name)
                except Exception:
                    installed = None
                if installed != recorded:
                    self._say(
                        "openai4s_host: %s %s is installed, the session used %s (pip install %s==%s to match)"
                        % (name, installed or "is not", recorded, name, recorded)
                    )

    # ------------------------------------------------------------ answers

    def _find(self, method, args):
        names = {method, method.replace(".", "_")} | set(_ALIASES.get(method, ()))
        wanted = _canonical(args)
        fallback = None
        for i, call in enumerate(self._calls):
            if call.get("method") not in names or _canonical(call.get("arguments") or {}) != wanted:
                continue
            if not self._used[i]:
                return i
            if fallback is None:
                fallback = i  # a cell run twice asks again: the same answer
        return fallback

    def call(self, method, **args):
        """Any host method, answered from the recorded call with the same arguments."""
        i = self._find(method, args)
        if i is None:
            raise HostError(
                "%s(%s): no recorded answer. This package answers only the requests the session made; "
                "run the notebook in OpenAI4S for a live answer" % (method, _canonical(args))
            )
        self._used[i] = True
        call = self._calls[i]
        if call.get("status") != "ok":
            raise HostError("%s: %s" % (method, call.get("text") or "failed in the session"))
        answer = {"text": call.get("text", "")}
        if "output" in call:
            answer["output"] = copy.deepcopy(call["output"])
        return answer

    def save_artifact(self, path, **args):
        """The recorded version, after checking the file now in the workspace against it."""
        answer = self.call("save_artifact", path=str(path), **args)
        recorded = (answer.get("output") or {}).get("sha256")
        local = self._inside(str(path))
        actual = _sha256_file(local) if os.path.isfile(local) else None
        outcome = "missing" if actual is None else "match" if actual == recorded else "differs"
        self.saved.append({"path": str(path), "recorded_sha256": recorded, "sha256": actual, "outcome": outcome})
        number = (answer.get("output") or {}).get("number")
        if outcome == "match":
            self._say("openai4s_host: %s matches recorded version v%s byte for byte" % (path, number))
        elif outcome == "differs":
            self._say("openai4s_host: %s DIFFERS from recorded version v%s (sha256 %s, recorded %s)" % (path, number, actual, recorded))
        else:
            self._say("openai4s_host: %s was not written by this run (recorded version v%s)" % (path, number))
        return answer

    def read_file(self, path):
        try:
            return self.call("read_file", path=str(path))
        except HostError:
            with open(self._inside(str(path)), "r", encoding="utf-8") as handle:
                text = handle.read()
            return {"text": text, "output": {"path": str(path), "bytes": len(text.encode("utf-8"))}}

    def write_file(self, path, content):
        target = self._inside(str(path))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as handle:
            handle.write(content)
        try:
            return self.call("write_file", path=str(path), content=content)
        except HostError:
            return {"text": "wrote %s" % path, "output": {"path": str(path)}}

    def web_fetch(self, url, **args):
        return self.call("web_fetch", url=url, **args)

    def llm(self, prompt, **args):
        return self.call("llm", prompt=prompt, **args)

    def submit_output(self, **answer):
        """Outside the app there is no run to finish: shows the answer and returns."""
        summary = answer.get("summary") or answer.get("answer") or ""
        self._say("openai4s_host: submit_output (no-op outside OpenAI4S): %s" % (str(summary)[:500] or _canonical(answer)[:500]))
        return {"text": "submit_output is a no-op outside OpenAI4S", "output": None}

    # ------------------------------------------------------------ artifacts

    def _version(self, path, version):
        rows = [row for row in self._artifacts if row.get("path") == path]
        if version is not None:
            rows = [row for row in rows if row.get("number") == version or row.get("id") == version]
        if not rows:
            known = sorted({row.get("path") for row in self._artifacts})
            raise HostError("artifact %s%s is not in this package (it has %s)" % (path, "" if version is None else " v%s" % version, ", ".join(known) or "no artifacts"))
        return max(rows, key=lambda row: row.get("number") or 0)

    def artifact_path(self, path, version=None):
        """Where an exported artifact version is (the latest without `version`)."""
        return os.path.join(self.package_dir, self._version(path, version)["file"])

    def read_artifact(self, path, version=None):
        """The bytes of an exported artifact version (the latest without `version`)."""
        with open(self.artifact_path(path, version), "rb") as handle:
            return handle.read()

    def list_artifacts(self, **args):
        try:
            return self.call("list_artifacts", **args)
        except HostError:
            return {"text": _canonical([{"path": r.get("path"), "version": r.get("number"), "sha256": r.get("sha256")} for r in self._artifacts]), "output": copy.deepcopy(self._artifacts)}

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return _Namespace(self, name)

    def __repr__(self):
        return "<openai4s_host: %d recorded answers from %s>" % (len(self._calls), self.package_dir)


if __name__ == "__main__":
    # `python reproduce/openai4s_host.py <package_dir>`: checks the package loads.
    print(Host(sys.argv[1] if len(sys.argv) > 1 else ".", chdir=False))
