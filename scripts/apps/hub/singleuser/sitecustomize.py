# Run by Python at the start of every participant's Jupyter server (this folder is on its PYTHONPATH; it
# stands in for Debian's sitecustomize, which only installs Ubuntu's apport hook, absent on Debian).
# send2trash tries its GIO backend first, and `import gi` loads GObject introspection: ~0.05-0.15 CPU-s of
# every server start (issue 46). Without gi, send2trash takes its own freedesktop.org trash, which moves a
# deleted notebook to ~/.local/share/Trash just the same.
import sys

sys.modules.setdefault("gi", None)
