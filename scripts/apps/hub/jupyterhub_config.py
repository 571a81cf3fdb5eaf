# The kit's JupyterHub configuration (`npm run hub`, scripts/apps/hub/main.ts). scripts/apps/hub/main.ts writes the settings
# as JSON and names the file in KURS_HUB_SETTINGS; everything the hub does for the class is here:
# - German pages (templates/: login, waiting, home, errors, logout) with the participant's name as typed;
#   each participant's Jupyter opens at 00-start.ipynb and speaks German to a German browser (notebook-ui.ts);
# - login with a name and the class's join code (German page: templates/login.html); whether a login may go
#   ahead (code, name, look-alikes, --max, putting the name on the board) is decided by the board's own code,
#   asked from `npm run hub` (login-check.ts); this file only keeps the participant list;
# - each participant gets `<root>/<user>/` with fresh copies of the notebooks and a link to the kit's
#   built lib (read-only), the kit's TypeScript kernel as default, and KURS_*/LLM_* in the kernel;
# - as root every participant is a system user of their own (home mode 700); otherwise all share one;
#   the hub makes and adopts only its own accounts (own_accounts.py) and works in a participant's folder
#   only as that participant (safe_files.py); login form and logout carry an XSRF token (web_guards.py).
import asyncio
import hashlib
import hmac
import json
import os
import re
import sys
import unicodedata
from concurrent.futures import ThreadPoolExecutor

from jupyterhub.auth import Authenticator
from jupyterhub.handlers.login import LoginHandler
from tornado.httpclient import HTTPRequest
from tornado.simple_httpclient import SimpleAsyncHTTPClient

sys.dont_write_bytecode = True  # no root-owned __pycache__ in the kit's folder
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from own_accounts import ensure_account, name_is_free  # noqa: E402 (the kit's modules beside this file)
from proxy_trust import client_address  # noqa: E402
from safe_files import FileWorkError, copy_as  # noqa: E402
from web_guards import KursLogoutHandler, XsrfLoginMixin  # noqa: E402

with open(os.environ["KURS_HUB_SETTINGS"], encoding="utf-8") as f:
    S = json.load(f)

from kurs_limits import SpawnRefused, blocked_reason, spawner_class  # noqa: E402 (next to this file)

STATE = S["stateDir"]
PARTICIPANTS_FILE = os.path.join(STATE, "teilnehmende.json")
USER_PREFIX = "kurs-"
# Logins are checked (and put on the board) at the same time; only reading and writing the participant list
# is one at a time. --max stays exact because the login check counts the seats it has granted (login-check.ts).
PARTICIPANTS_LOCK = asyncio.Lock()
# A start's slow parts run on threads of their own, not in asyncio's default pool (a few threads that also
# resolve host names for Tornado): a copy waits for a child the participant can stall (up to safe_files'
# timeout), so at most four copies run at once and further starts wait for one; useradd and the account
# records run one at a time on one thread (no lock held while waiting for a thread).
COPY_THREADS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="kurs-copy")
ACCOUNT_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kurs-account")


async def ask_login_check(name, code, pin, address):
    """`npm run hub` decides by the board's rules (scripts/apps/hub/login-check.ts): {name, key} or {problem}."""
    request = HTTPRequest(
        S["loginCheck"]["url"],
        method="POST",
        body=json.dumps({"name": name, "code": code, "pin": pin, "address": address}),
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


DISK_FULL = "Auf dem Kursrechner ist gerade kein Platz mehr – bitte der Kursleitung Bescheid geben."


def save_participants(data):
    """Writes the list atomically; False when the disk is full (the old list stays as it was)."""
    tmp = PARTICIPANTS_FILE + ".tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False, indent=1)
        os.replace(tmp, PARTICIPANTS_FILE)
        return True
    except OSError:
        try:
            os.remove(tmp)
        except OSError:
            pass
        return False


def user_name_for(name, taken, free=lambda user: True):
    """A system user name for a participant's name: kurs-<letters>, unique, at most 32 characters."""
    text = name.lower()
    for a, b in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")):
        text = text.replace(a, b)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    base = (USER_PREFIX + (re.sub(r"[^a-z0-9]+", "-", text).strip("-")[:20] or "tn")).rstrip("-")
    user, n = base, 2
    while user in taken or not free(user):
        user, n = f"{base}-{n}", n + 1
    return user


class KursLoginHandler(XsrfLoginMixin, LoginHandler):
    """The login page with the German reason a login was refused (the stock page says only 'Invalid')."""

    async def _render(self, login_error=None, username=None):
        return await super()._render(login_error=getattr(self, "kurs_error", None) or login_error, username=username)


class KursAuthenticator(Authenticator):
    """Name + the class's join code; the name becomes a `kurs-…` user, kept in teilnehmende.json."""

    def get_handlers(self, app):
        return [("/login", KursLoginHandler), ("/logout", KursLogoutHandler)]

    async def authenticate(self, handler, data):
        answer = await ask_login_check(data.get("username", ""), data.get("password", ""), data.get("pin", ""), client_address(handler.request))
        if "problem" in answer:
            handler.kurs_error = answer["problem"]
            return None
        async with PARTICIPANTS_LOCK:
            participants = load_participants()
            name, key = answer["name"], answer["key"]
            if key not in participants:
                taken = {p["user"] for p in participants.values()}
                free = lambda user: name_is_free(STATE, S["root"], user, S["isolated"])  # noqa: E731
                participants[key] = {"name": name, "user": user_name_for(name, taken, free)}
                if not save_participants(participants):
                    handler.kurs_error = DISK_FULL
                    return None
            return participants[key]["user"]


def display_name(user):
    """The name the participant typed at login, for the account name the hub knows them by."""
    for p in load_participants().values():
        if p["user"] == user:
            return p["name"]
    return user


def board_token(user):
    """The participant's board token (scripts/apps/board/hub-trust.ts participantToken): posts only under their name."""
    if not S.get("boardHubKey"):
        return None
    for key, p in load_participants().items():
        if p["user"] == user:
            return hmac.new(S["boardHubKey"].encode(), ("kurs-board:" + key).encode(), hashlib.sha256).hexdigest()[:32]
    return None


def copy_notebooks(home, owner):
    """Fresh copies of what the participant does not have yet (existing files are never overwritten),
    placed as the participant (safe_files.py): a link they planted leads nowhere they could not write."""
    wanted = list(S["notebooks"])
    if os.path.exists(os.path.join(STATE, "loesungen-frei")):
        wanted += S["solutions"]
    _, problems = copy_as(owner, home, wanted)
    for problem in problems:
        print(f"[KursHub] {os.path.basename(home)}: {problem}", file=sys.stderr)


async def pre_spawn(spawner):
    user = spawner.user.name
    blocked = blocked_reason(STATE, user)
    if blocked:
        raise SpawnRefused(user, blocked)  # the hub's error page shows the German reason
    home = os.path.join(S["root"], user)
    # Off the hub's loop, so one slow start holds up only this participant, not every login: the account
    # (useradd, one at a time) and the copy, which waits for a child that runs as the participant (who can
    # stop it; safe_files' timeout ends it).
    loop = asyncio.get_running_loop()
    owner = await loop.run_in_executor(ACCOUNT_THREAD, ensure_account, STATE, S["root"], user, S["isolated"])
    try:
        await loop.run_in_executor(COPY_THREADS, copy_notebooks, home, owner)
    except FileWorkError as error:
        print(f"[KursHub] {error}", file=sys.stderr)
        raise SpawnRefused(user, "Deine Notebooks ließen sich gerade nicht anlegen – bitte gleich noch einmal starten; "
                                 "klappt es wieder nicht, der Kursleitung Bescheid geben.") from error
    spawner.environment.update(S["kernelEnv"])
    spawner.environment["KURS_NAME"] = display_name(user)
    token = board_token(user)
    if token:
        spawner.environment["KURS_BOARD_TOKEN"] = token
    # kurs_host_check and sitecustomize (singleuser/) beside what the kernel environment already puts there
    # (the German catalog).
    own = os.path.join(os.path.dirname(os.path.abspath(__file__)), "singleuser")
    spawner.environment["PYTHONPATH"] = os.pathsep.join(p for p in (own, spawner.environment.get("PYTHONPATH")) if p)
    # Notebook imports distutils.version; setuptools' stand-in for distutils pulls pkg_resources in (~0.1 CPU-s
    # of every server start), Python's own distutils does not.
    spawner.environment["SETUPTOOLS_USE_DISTUTILS"] = "stdlib"
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
# The hub's pages show the participant's name as typed ("Lena Vogt"), not the account "kurs-lena-vogt".
c.JupyterHub.template_vars = {"kurs_name": display_name}
c.JupyterHub.authenticator_class = KursAuthenticator
# The hub's XSRF cookie (web_guards.py) only for the hub's pages: on "/" it would shadow the `_xsrf` cookie of
# each participant's Notebook server (/user/<name>/), whose POSTs (start a kernel, save) would then fail.
# slow_spawn_timeout stays JupyterHub's 10 s: at 0 the waiting page came at once, but a start the hub refuses
# (kurs_limits.SpawnRefused, e.g. the disk guard) then lost its German reason to "Spawner failed to start".
c.JupyterHub.tornado_settings = {"xsrf_cookie_kwargs": {"path": "/hub/"}}
c.JupyterHub.shutdown_on_logout = False
# A crash or restart of JupyterHub costs nobody their kernel: `npm run hub` runs the proxy itself (it keeps the
# routes) and starts JupyterHub again; the participants' servers keep running and are taken up again.
c.JupyterHub.cleanup_servers = False
c.JupyterHub.cleanup_proxy = False
c.ConfigurableHTTPProxy.should_start = False
c.ConfigurableHTTPProxy.auth_token = S["proxyToken"]
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{S['proxyApiPort']}"
c.ConfigurableHTTPProxy.debug = False
c.JupyterHub.last_activity_interval = 60  # also puts the routes back into a restarted proxy
# The disk guard of `npm run hub` (disk-guard.ts) stops a participant's server through the hub's API.
c.JupyterHub.services = [{"name": "kurs-platz", "api_token": S["guardToken"]}]
c.JupyterHub.load_roles = [{"name": "kurs-platz", "scopes": ["servers", "read:users"], "services": ["kurs-platz"]}]

c.JupyterHub.spawner_class = spawner_class(S["isolated"], S["limits"])
if S["isolated"]:
    c.Spawner.notebook_dir = "~"
else:
    c.SimpleLocalProcessSpawner.home_dir_template = os.path.join(S["root"], "{username}")
    c.Spawner.notebook_dir = os.path.join(S["root"], "{username}")
c.Spawner.pre_spawn_hook = pre_spawn
c.Spawner.default_url = S["firstScreen"]
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
c.Spawner.args = S["singleUserArgs"]
