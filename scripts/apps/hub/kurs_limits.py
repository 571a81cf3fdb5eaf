# Limits per participant for the kit's JupyterHub (jupyterhub_config.py): `npm run hub` decides what this
# machine allows (scripts/apps/hub/limits.ts) and hands it over in settings.json as "limits"; here the spawn
# applies it to each participant's Jupyter server and everything it starts (kernels, their children):
# RLIMIT_NPROC (processes and threads of the participant's user), RLIMIT_FSIZE (largest file), and a cgroup v2
# memory.max. A participant the disk guard (disk-guard.ts) stopped is not started again while their folder
# is over the limit; the reason is in <state>/gesperrt.json, in German.
import json
import os
import resource

from jupyterhub.handlers.base import reasons
from jupyterhub.spawner import LocalProcessSpawner, SimpleLocalProcessSpawner
from tornado import web


def blocked_reason(state_dir, user):
    """The German reason `user` may not start now (folder over --platz-je-person), or None."""
    try:
        with open(os.path.join(state_dir, "gesperrt.json"), encoding="utf-8") as f:
            return json.load(f).get(user)
    except (OSError, ValueError):
        return None


class SpawnRefused(web.HTTPError):
    """A refused start whose German reason reaches the hub's error page: JupyterHub replaces a failed spawn's
    `reason` with its English "Failed to start your server…", and looks a reason up in its `reasons` table."""

    def __init__(self, user, message):
        self._kurs_reason = f"kurs-{user}"
        reasons[self._kurs_reason] = message
        super().__init__(507, "%s", message)

    reason = property(lambda self: self._kurs_reason, lambda self, value: None)
    kurs_reason = True  # error.html shows the German reason as the page's message


def memory_cgroup(limits, user):
    """The participant's own cgroup with memory.max set (made by root before the spawn), or None."""
    parent = limits.get("memoryCgroup")
    if not parent:
        return None
    folder = os.path.join(parent, user)
    try:
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "memory.max"), "w") as f:
            f.write(str(limits["memoryBytes"]))
        with open(os.path.join(folder, "memory.swap.max"), "w") as f:
            f.write("0")
    except OSError:
        # memory.swap.max is missing without swap accounting; memory.max alone still limits
        if not os.path.exists(os.path.join(folder, "memory.max")):
            return None
    return folder


def limited(preexec, limits, cgroup):
    """`preexec` (JupyterHub's: drop to the participant's uid) after the limits: set as root, so the
    participant cannot raise them (hard limit = soft limit)."""

    def apply():
        if cgroup:
            with open(os.path.join(cgroup, "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))
        if limits.get("processes"):
            resource.setrlimit(resource.RLIMIT_NPROC, (limits["processes"], limits["processes"]))
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits["fileBytes"], limits["fileBytes"]))
        if preexec:
            preexec()

    return apply


def limited_spawner(base, limits):
    """`base` (LocalProcessSpawner or SimpleLocalProcessSpawner) with the limits in its spawn."""

    class KursSpawner(base):
        def make_preexec_fn(self, name):
            return limited(super().make_preexec_fn(name), limits, memory_cgroup(limits, name))

    return KursSpawner


def spawner_class(isolated, limits):
    return limited_spawner(LocalProcessSpawner if isolated else SimpleLocalProcessSpawner, limits)
