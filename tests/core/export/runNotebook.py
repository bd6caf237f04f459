"""Executes an exported notebook as plain Jupyter would, and prints what its cells did as JSON.

Usage: python3 runNotebook.py <notebook.ipynb>. The kernel is the system's `python3`
kernelspec (Debian python3-ipykernel), started over IPC sockets so it needs no network
interface (the test runs this inside a network namespace with only loopback). Exits 1
with the first error output when a cell not tagged `raises-exception` fails.
"""
import json
import os
import sys

import nbformat
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

path = os.path.abspath(sys.argv[1])
nb = nbformat.read(path, as_version=4)
km = KernelManager(kernel_name="python3", transport="ipc", ip=os.path.join(os.path.dirname(path), ".kernel-ipc"))
client = NotebookClient(nb, km=km, timeout=180, resources={"metadata": {"path": os.path.dirname(path)}})
try:
    client.execute()
except CellExecutionError as error:
    print(json.dumps({"ok": False, "error": str(error)[:4000]}))
    sys.exit(1)
cells = []
for cell in nb.cells:
    if cell.cell_type != "code":
        continue
    cells.append({
        "setup": bool(cell.metadata.get("openai4s", {}).get("setup")),
        "stdout": "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream" and o.name == "stdout"),
        "errors": ["%s: %s" % (o.ename, o.evalue) for o in cell.outputs if o.output_type == "error"],
    })
print(json.dumps({"ok": True, "cells": cells}))
