# Run by Python at the start of every process of a participant's Jupyter server (this folder is on its
# PYTHONPATH; it stands in for Debian's sitecustomize, which only installs Ubuntu's apport hook, absent on
# Debian). In the server itself, two imports are turned away that it tries and does without (issue 46, CPU and
# memory of every participant's start; npm run bench -- singleuser-start):
# - gi (GObject introspection): send2trash tries its GIO backend first; without it, it takes its own
#   freedesktop.org trash, which moves a deleted notebook to ~/.local/share/Trash just the same;
# - IPython: Notebook adds ~/.ipython/nbextensions to its extension path if IPython imports, and jupyter_client
#   asks ipykernel for the Python kernel's spec, which /usr/share/jupyter/kernels/python3 also has.
# Kernels the server starts (a Python kernel needs IPython) keep every module. Where the hub switched KSM on
# (KIT_KSM=1, scripts/apps/hub/ksm.ts), the server opts in to sharing equal memory pages, for itself and all
# it starts.
import os
import sys

if os.path.basename(sys.argv[0] if sys.argv else "") == "jupyterhub-singleuser":
    for name in ("gi", "IPython"):
        sys.modules.setdefault(name, None)
    # The hub switched KSM on (scripts/apps/hub/ksm.ts): this server and everything it starts (kernels, MCP
    # servers; the setting is inherited) may share equal memory pages. A Linux kernel without it refuses; fine.
    if os.environ.get("KIT_KSM") == "1":
        import ctypes

        PR_SET_MEMORY_MERGE = 67
        ctypes.CDLL(None).prctl(PR_SET_MEMORY_MERGE, 1, 0, 0, 0)
