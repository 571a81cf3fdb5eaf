# The kit's JupyterHub configuration (`npm run hub`, scripts/apps/hub/main.ts). scripts/apps/hub/main.ts writes the settings
# as JSON and names the file in KURS_HUB_SETTINGS; everything the hub does for the class is here:
# - login with a name and the class's join code (German page: templates/login.html); whether a login may go
#   ahead (code, name, look-alikes, --max, putting the name on the board) is decided by the board's own code,
#   asked from `npm run hub` (login-check.ts); this file only keeps the participant list;
# - each participant gets `<root>/<user>/` with fresh copies of the notebooks and a link to the kit's
#   built lib (read-only), the kit's TypeScript kernel as default, and KURS_*/LLM_* in the kernel;
# - as root every participant is a system user of their own (home mode 700); otherwise all share one.
import asyncio
import json
import os
import pwd
import re
import shutil
import subprocess
import unicodedata

from jupyterhub.auth import Authenticator
from jupyterhub.handlers.login import LoginHandler
from jupyterhub.spawner import LocalProcessSpawner, SimpleLocalProcessSpawner
from tornado.httpclient import HTTPRequest
from tornado.simple_httpclient import SimpleAsyncHTTPClient

with open(os.environ["KURS_HUB_SETTINGS"], encoding="utf-8") as f:
    S = json.load(f)

STATE = S["stateDir"]
PARTICIPANTS_FILE = os.path.join(STATE, "teilnehmende.json")
USER_PREFIX = "kurs-"
# Logins are checked (and put on the board) at the same time; only reading and writing the participant list
# is one at a time. --max stays exact because the login check counts the seats it has granted (login-check.ts).
PARTICIPANTS_LOCK = asyncio.Lock()


def client_address(request):
    """The address a login came from: the last X-Forwarded-For entry, which the kit's proxy appends (tornado's
    remote_ip believes an X-Real-Ip header the client sends, so a guesser could pick any address)."""
    forwarded = request.headers.get("X-Forwarded-For", "").split(",")[-1].strip()
    return forwarded or request.remote_ip


async def ask_login_check(name, code, address):
    """`npm run hub` decides by the board's rules (scripts/apps/hub/login-check.ts): {name, key} or {problem}."""
    request = HTTPRequest(
        S["loginCheck"]["url"],
        method="POST",
        body=json.dumps({"name": name, "code": code, "address": address}),
        headers={"content-type": "application/json", "x-kurs-token": S["loginCheck"]["token"]},
        request_timeout=15,
    )
    try:
        # the simple client never uses an HTTP proxy from the environment: the endpoint is on loopback
        response = await SimpleAsyncHTTPClient().fetch(request)
        return json.loads(response.body)
    except Exception:  # noqa: BLE001 (unreachable, refused or unreadable: the participant gets one German line)
        return {"problem": "Der Hub kann die Anmeldung gerade nicht prüfen – bitte der Kursleitung Bescheid geben."}


def load_participants():
    try:
        with open(PARTICIPANTS_FILE, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        return {}


def save_participants(data):
    tmp = PARTICIPANTS_FILE + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1)
    os.replace(tmp, PARTICIPANTS_FILE)


def user_name_for(name, taken):
    """A system user name for a participant's name: kurs-<letters>, unique, at most 32 characters."""
    text = name.lower()
    for a, b in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")):
        text = text.replace(a, b)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    base = (USER_PREFIX + (re.sub(r"[^a-z0-9]+", "-", text).strip("-")[:20] or "tn")).rstrip("-")
    user, n = base, 2
    while user in taken:
        user, n = f"{base}-{n}", n + 1
    return user


class KursLoginHandler(LoginHandler):
    """The login page with the German reason a login was refused (the stock page says only 'Invalid')."""

    async def _render(self, login_error=None, username=None):
        return await super()._render(login_error=getattr(self, "kurs_error", None) or login_error, username=username)


class KursAuthenticator(Authenticator):
    """Name + the class's join code; the name becomes a `kurs-…` user, kept in teilnehmende.json."""

    def get_handlers(self, app):
        return [("/login", KursLoginHandler)]

    async def authenticate(self, handler, data):
        answer = await ask_login_check(data.get("username", ""), data.get("password", ""), client_address(handler.request))
        if "problem" in answer:
            handler.kurs_error = answer["problem"]
            return None
        async with PARTICIPANTS_LOCK:
            participants = load_participants()
            name, key = answer["name"], answer["key"]
            if key not in participants:
                taken = {p["user"] for p in participants.values()}
                participants[key] = {"name": name, "user": user_name_for(name, taken)}
                save_participants(participants)
            return participants[key]["user"]


def display_name(user):
    for p in load_participants().values():
        if p["user"] == user:
            return p["name"]
    return user


def ensure_system_user(user, home):
    """Root only: the participant's own system user with a home nobody else can read."""
    try:
        if pwd.getpwnam(user).pw_dir != home:  # made by a hub on another --root: its home moves here
            subprocess.run(["usermod", "--home", home, user], check=True)
    except KeyError:
        subprocess.run(["useradd", "--no-create-home", "--home-dir", home, "--shell", "/usr/sbin/nologin", "--user-group", user], check=True)
    os.makedirs(home, exist_ok=True)
    entry = pwd.getpwnam(user)
    os.chown(home, entry.pw_uid, entry.pw_gid)
    os.chmod(home, 0o700)
    return entry


def copy_notebooks(home, owner):
    """Fresh copies of what the participant does not have yet (existing files are never overwritten)."""
    wanted = list(S["notebooks"])
    if os.path.exists(os.path.join(STATE, "loesungen-frei")):
        wanted += S["solutions"]
    for item in wanted:
        dest = os.path.join(home, item["to"])
        if item.get("link"):
            if not os.path.lexists(dest):
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                os.symlink(item["from"], dest)
                if owner:
                    os.lchown(dest, owner.pw_uid, owner.pw_gid)
                    if os.path.dirname(dest) != home:
                        os.chown(os.path.dirname(dest), owner.pw_uid, owner.pw_gid)
            continue
        if os.path.exists(dest):
            continue
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(item["from"], dest)
        if owner:
            # the file and every folder made for it (e.g. .cache/rag) belong to the participant
            path = dest
            while path != home:
                os.chown(path, owner.pw_uid, owner.pw_gid)
                path = os.path.dirname(path)


def pre_spawn(spawner):
    user = spawner.user.name
    home = os.path.join(S["root"], user)
    owner = ensure_system_user(user, home) if S["isolated"] else None
    if owner is None:
        os.makedirs(home, exist_ok=True)
    copy_notebooks(home, owner)
    spawner.environment.update(S["kernelEnv"])
    spawner.environment["KURS_NAME"] = display_name(user)
    # What a kernel writes goes to the participant's folder (the kit's own folders are the instructor's).
    for key, folder in (("RAG_CACHE_DIR", ".cache/rag"), ("LLM_STATE_DIR", ".cache/llm-state"),
                        ("TRAVEL_CACHE_DIR", ".cache/travel"), ("TRAVEL_WORKSPACE_DIR", "workspace")):
        if spawner.environment.get(key, "").strip().lower() != "off":
            spawner.environment[key] = os.path.join(home, folder)


c = get_config()  # noqa: F821 (provided by JupyterHub)
c.JupyterHub.ip = S["host"]
c.JupyterHub.port = S["port"]
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = S["hubPort"]
c.JupyterHub.db_url = "sqlite:///" + os.path.join(STATE, "jupyterhub.sqlite")
c.JupyterHub.cookie_secret_file = os.path.join(STATE, "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = os.path.join(STATE, "jupyterhub.pid")
c.JupyterHub.template_paths = [S["templates"]]
c.JupyterHub.authenticator_class = KursAuthenticator
c.JupyterHub.shutdown_on_logout = False
c.JupyterHub.cleanup_servers = True
c.ConfigurableHTTPProxy.command = [S["proxyCommand"]]
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{S['proxyApiPort']}"
c.ConfigurableHTTPProxy.pid_file = os.path.join(STATE, "proxy.pid")
c.ConfigurableHTTPProxy.debug = False

if S["isolated"]:
    c.JupyterHub.spawner_class = LocalProcessSpawner
    c.Spawner.notebook_dir = "~"
else:
    c.JupyterHub.spawner_class = SimpleLocalProcessSpawner
    c.SimpleLocalProcessSpawner.home_dir_template = os.path.join(S["root"], "{username}")
    c.Spawner.notebook_dir = os.path.join(S["root"], "{username}")
c.Spawner.pre_spawn_hook = pre_spawn
c.Spawner.default_url = "/tree"
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
c.Spawner.args = S["singleUserArgs"]
