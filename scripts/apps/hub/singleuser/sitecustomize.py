# Run by Python at the start of every process of a participant's Jupyter server (this folder is on its
# PYTHONPATH; it stands in for Debian's sitecustomize, which only installs Ubuntu's apport hook, absent on
# Debian). In the server itself, two imports are turned away that it tries and does without (issue 46, CPU and
# memory of every participant's start; npm run bench -- singleuser-start):
# - gi (GObject introspection): send2trash tries its GIO backend first; without it, it takes its own
#   freedesktop.org trash, which moves a deleted notebook to ~/.local/share/Trash just the same;
# - IPython: Notebook adds ~/.ipython/nbextensions to its extension path if IPython imports, and jupyter_client
#   asks ipykernel for the Python kernel's spec, which /usr/share/jupyter/kernels/python3 also has.
# Kernels the server starts (a Python kernel needs IPython) keep every module.
import os
import sys

if os.path.basename(sys.argv[0] if sys.argv else "") == "jupyterhub-singleuser":
    for name in ("gi", "IPython"):
        sys.modules.setdefault(name, None)
