# A Notebook 6 server extension for the participants' Jupyter servers (issue 43): JupyterHub 3.0's
# single-user mixin sets `allow_remote_access = True` as a class attribute, so Notebook's Host check
# (`--NotebookApp.allow_remote_access=False`, `local_hostnames`) never runs. This puts a Host check back:
# a request's Host must be a loopback address (the hub's own checks) or one of `local_hostnames` (the names
# the room uses, `npm run hub -- --allowed-host`); anything else (DNS rebinding) gets 403.
# Loaded with --NotebookApp.nbserver_extensions (scripts/apps/hub/settings.ts); on PYTHONPATH via the spawner.
import ipaddress
import re

from notebook.base.handlers import IPythonHandler


def host_allowed(host_header, allowed):
    host = re.match(r"^(.*?)(:\d+)?$", host_header or "").group(1).lower()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    try:
        return ipaddress.ip_address(host).is_loopback or host in allowed
    except ValueError:
        return host in allowed


def load_jupyter_server_extension(nbapp):
    allowed = {h.lower().strip("[]") for h in nbapp.local_hostnames}

    def check_host(self):
        if host_allowed(self.request.host, allowed):
            return True
        self.log.warning("Blocking request with Host %r (allowed: loopback, %s)", self.request.host, ", ".join(sorted(allowed)))
        return False

    IPythonHandler.check_host = check_host
    nbapp.log.info("Kurs: Host check on (%s)", ", ".join(sorted(allowed)))
