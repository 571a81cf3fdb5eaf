# The kernel manager of the participants' Jupyter servers (issue 46): a kernel that dies while it starts comes
# back on new ports. Jupyter chooses a kernel's ports, then starts the kernel; in a busy room another kernel or
# server may take one of them first. The kit's tslab then ends at once, and Jupyter's restarter asks for new
# ports, but jupyter_client 7.4 keeps ports from its port cache across restarts: the kernel failed on the same
# taken port five times and was declared dead. Without the cache, ports are chosen anew on such a restart.
# --MappingKernelManager.kernel_manager_class (scripts/apps/hub/settings.ts); on PYTHONPATH via the spawner.
from jupyter_client.ioloop import IOLoopKernelManager
from traitlets import default


class KursKernelManager(IOLoopKernelManager):
    @default("cache_ports")
    def _default_cache_ports(self):
        return False
