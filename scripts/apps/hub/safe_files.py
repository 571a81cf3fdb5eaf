# File work inside a participant's folder, done as the participant (issue 43): the hub runs as root, the
# folder is the participant's, and anything in it may be a symlink they planted (a notebook name pointing
# at /etc/profile.d/x, `.cache` or `loesungen` pointing at a root-owned folder). So root never writes or
# chowns there: it opens the sources (the kit's files, root's to read), then a child process that has
# dropped to the participant's uid/gid (no supplementary groups) receives them as file descriptors and
# places the copies. A planted link then reaches only what the participant could write anyway.
#
# Used by jupyterhub_config.py (pre_spawn: notebooks, lib link, RAG indexes, released solutions) and, as
# `python3 safe_files.py --release`, by `npm run hub -- --loesungen-freigeben` (participants.ts).
import json
import os
import subprocess
import sys

HERE = os.path.abspath(__file__)
# Debian's interpreter first: one under /root (pyenv) cannot be run by a participant's account.
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


class FileWorkError(Exception):
    """A participant's files could not be placed; the message is German, for the participant or the instructor."""


def place(home, items, read):
    """Runs as the folder's owner: each item that is not there yet. `read(item)` gives a copy's bytes.
    Existing files (or links) are never overwritten; a copy appears whole or not at all. Returns how many
    were placed and the problems (e.g. a planted link into a folder the owner may not write)."""
    placed, problems = 0, []
    for item in items:
        dest = os.path.join(home, item["to"])
        try:
            if os.path.lexists(dest):
                continue
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            if item.get("link"):
                os.symlink(item["from"], dest)
            else:
                _write_new(dest, read(item))
            placed += 1
        except OSError as error:
            problems.append(f"{item['to']}: {error.strerror or error}")
    return placed, problems


def _write_new(dest, data):
    tmp = f"{dest}.tmp-{os.getpid()}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.link(tmp, dest)  # fails if dest appeared meanwhile: never overwrite
    except FileExistsError:
        pass
    finally:
        os.unlink(tmp)


def _read_fd(item):
    os.lseek(item["fd"], 0, os.SEEK_SET)
    with os.fdopen(os.dup(item["fd"]), "rb") as f:
        return f.read()


def _read_path(item):
    with open(item["from"], "rb") as f:
        return f.read()


def copy_as(owner, home, items):
    """Places `items` in `home` as `owner` (a pwd entry) in a child with the owner's uid/gid, or in this
    process when `owner` is None (the hub is not root: everyone is the instructor's user anyway)."""
    if owner is None:
        return place(home, items, _read_path)
    fds, jobs = [], []
    try:
        for item in items:
            if os.path.lexists(os.path.join(home, item["to"])):
                continue  # already there (checked again by the child, which decides)
            job = {"to": item["to"]}
            if item.get("link"):
                job.update(link=True, **{"from": item["from"]})
            else:
                fd = os.open(item["from"], os.O_RDONLY)
                fds.append(fd)
                job["fd"] = fd
            jobs.append(job)
        if not jobs:
            return 0, []
        result = subprocess.run(
            [PYTHON, "-I", HERE, "--place"],
            input=json.dumps({"home": home, "items": jobs}).encode(),
            user=owner.pw_uid,
            group=owner.pw_gid,
            extra_groups=[],
            pass_fds=fds,
            cwd=home,
            env={"PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8", **_stall_for_tests()},
            capture_output=True,
            timeout=60,
            check=False,
        )
    except subprocess.SubprocessError as error:  # e.g. a child the participant stopped: a problem of this folder
        raise FileWorkError(f"Dateien für {owner.pw_name} ließen sich nicht anlegen: {error}") from error
    finally:
        for fd in fds:
            os.close(fd)
    if result.returncode != 0:
        detail = result.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["?"]
        raise FileWorkError(f"Dateien für {owner.pw_name} ließen sich nicht anlegen: {detail[0]}")
    try:  # the child ran as the participant: its answer is untrusted
        answer = json.loads(result.stdout)
        return int(answer["placed"]), [str(p) for p in answer["problems"]]
    except (ValueError, KeyError, TypeError) as error:
        raise FileWorkError(f"Dateien für {owner.pw_name}: unlesbare Antwort des Kopierprozesses") from error


# Fault injection for the tests only (test/scripts/hub-loop.test.ts): with KURS_HUB_TEST_KOPIE_HAELT=<folder>
# in the hub's environment, the copy child of a participant waits while <folder>/<their folder's name> exists.
STALL_ENV = "KURS_HUB_TEST_KOPIE_HAELT"


def _stall_for_tests():
    return {STALL_ENV: os.environ[STALL_ENV]} if os.environ.get(STALL_ENV) else {}


def _stall_if_asked(home):
    import time

    flag = os.path.join(os.environ.get(STALL_ENV, ""), os.path.basename(home))
    while os.environ.get(STALL_ENV) and os.path.exists(flag):
        time.sleep(0.1)


def owner_of(home):
    """The pwd entry of a participant's folder's owner; the folder must be a real folder, not a link."""
    import pwd
    import stat

    st = os.lstat(home)
    if not stat.S_ISDIR(st.st_mode):
        raise FileWorkError(f"{home} ist kein Ordner (sondern z. B. ein Link) – übersprungen.")
    return pwd.getpwuid(st.st_uid)


def _main():
    job = json.load(sys.stdin)
    if sys.argv[1] == "--place":
        # the participant's side: refuse to run with root's rights
        if os.getuid() == 0 or os.geteuid() == 0:
            sys.exit("safe_files --place runs only as the participant")
        os.umask(0o022)
        _stall_if_asked(job["home"])
        placed, problems = place(job["home"], job["items"], _read_fd)
        print(json.dumps({"placed": placed, "problems": problems}, ensure_ascii=False))
    elif sys.argv[1] == "--release":
        # root's side of --loesungen-freigeben: every participant's folder, each as its owner
        problems = []
        for home in job["homes"]:
            try:
                owner = owner_of(home) if os.getuid() == 0 else None
                if owner is not None and owner.pw_uid == 0:
                    raise FileWorkError(f"{home} gehört root – übersprungen.")
                problems += [f"{home}/{p}" for p in copy_as(owner, home, job["items"])[1]]
            except (OSError, FileWorkError, KeyError, subprocess.SubprocessError) as error:
                problems.append(str(error))
        print(json.dumps({"problems": problems}, ensure_ascii=False))


if __name__ == "__main__":
    _main()
