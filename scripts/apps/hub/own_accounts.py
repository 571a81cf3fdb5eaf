# The accounts and folders this hub made (issue 43): one record per participant's account in
# `<state>/konten/<user>.json` ({user, home, uid}), written when the hub made them. An existing system user
# or folder the hub did not make is never adopted (a login gets another name; a spawn is refused in German),
# so a hub on another --root, or the machine's own `kurs-…` users, are never taken over, and
# `npm run hub -- --aufraeumen` (accounts.ts) deletes only what is recorded here.
import json
import os
import pwd
import stat
import subprocess

# The GECOS field of the accounts the hub makes (shown by `getent passwd`), for whoever looks at the machine.
GECOS = "Klassenraum-Hub"


class AccountError(Exception):
    """An account or folder is not the hub's; the message is German, shown to the participant."""


def _records(state):
    return os.path.join(state, "konten")


def load_record(state, user):
    try:
        with open(os.path.join(_records(state), f"{user}.json"), encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def _save_record(state, record):
    os.makedirs(_records(state), mode=0o700, exist_ok=True)
    path = os.path.join(_records(state), f"{record['user']}.json")
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(record, f)
    os.replace(path + ".tmp", path)


def _system_user(user):
    try:
        return pwd.getpwnam(user)
    except KeyError:
        return None


def name_is_free(state, root, user, isolated):
    """True when `user` is this hub's, or neither a system user (as root) nor a folder in `root` exists."""
    record = load_record(state, user)
    if record is not None:
        return True
    if isolated and _system_user(user) is not None:
        return False
    return not os.path.lexists(os.path.join(root, user))


def ensure_account(state, root, user, isolated):
    """The participant's account (as root) and folder, made by this hub now or before; returns the pwd
    entry (None when not root). Raises AccountError for anything the hub did not make."""
    home = os.path.join(root, user)
    record = load_record(state, user)
    existing = _system_user(user) if isolated else None
    if record is None:
        if existing is not None or os.path.lexists(home):
            raise AccountError(
                f"Das Konto oder der Ordner „{user}“ gibt es auf diesem Rechner schon, aber nicht von diesem Hub – "
                "der Hub übernimmt es nicht. Bitte der Kursleitung Bescheid geben."
            )
        if isolated:
            subprocess.run(
                ["useradd", "--no-create-home", "--home-dir", home, "--shell", "/usr/sbin/nologin",
                 "--user-group", "--comment", GECOS, user],
                check=True,
            )
            existing = pwd.getpwnam(user)
        os.mkdir(home, 0o700)
        record = {"user": user, "home": home, "uid": existing.pw_uid if existing else None}
        _save_record(state, record)
    elif isolated and (existing is None or existing.pw_uid != record["uid"]):
        raise AccountError(f"Das Konto „{user}“ ist nicht mehr das, das dieser Hub angelegt hat – bitte der Kursleitung Bescheid geben.")
    if not os.path.lexists(home):  # the hub's folder, removed meanwhile: made again
        os.mkdir(home, 0o700)
    st = os.lstat(home)
    if not stat.S_ISDIR(st.st_mode):
        raise AccountError(f"Dein Ordner {home} ist kein Ordner mehr – bitte der Kursleitung Bescheid geben.")
    if existing is not None:
        os.chown(home, existing.pw_uid, existing.pw_gid, follow_symlinks=False)
        os.chmod(home, 0o700)
    return existing
