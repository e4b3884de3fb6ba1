"""Runs a notebook top to bottom on a fresh Python 3 kernel and saves it with its outputs.

    /usr/bin/python3 site/notebook-execute.py IN.ipynb OUT.ipynb

site/notebook.mjs runs it on the notebook the build writes; tests/js/notebook.test.js runs it on a
copy, to compare the outputs with the saved ones. Debian's packages: python3-nbformat,
python3-nbclient and python3-ipykernel (the kernel "python3"). No cell's timing is recorded, so
that two runs write the same file (with each stream's printing in one output, however the kernel
sent it).
"""

import os
import sys

import nbformat
from nbclient import NotebookClient


def coalesced(outputs):
    """The outputs with each run of one stream's pieces joined: how the kernel splits a cell's
    printing into messages depends on when it flushes, which two runs need not agree on."""
    joined = []
    for output in outputs:
        last = joined[-1] if joined else None
        if (
            output.output_type == "stream"
            and last is not None
            and last.output_type == "stream"
            and last.name == output.name
        ):
            last.text += output.text
        else:
            joined.append(output)
    return joined


def main(source, target):
    # The kernel's debugger warns on stderr at each start that Debian's Python freezes its modules;
    # it debugs nothing here.
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    notebook = nbformat.read(source, as_version=4)
    NotebookClient(
        notebook,
        kernel_name="python3",
        timeout=120,
        record_timing=False,
        resources={"metadata": {"path": os.path.dirname(os.path.abspath(source))}},
    ).execute()
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs = coalesced(cell.outputs)
    nbformat.validate(notebook)
    nbformat.write(notebook, target)


if __name__ == "__main__":
    main(*sys.argv[1:])
