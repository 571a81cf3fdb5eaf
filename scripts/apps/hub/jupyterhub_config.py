# The kit's JupyterHub configuration (`npm run hub`, scripts/apps/hub/main.ts). scripts/apps/hub/main.ts writes the settings
# as JSON and names the file in KURS_HUB_SETTINGS; everything the hub does for the class is here:
# - login with a name and the class's join code (German page: templates/login.html); whether a login may go
#   ahead (code, name, look-alikes, --max, putting the name on the board) is decided by the board's own code,
#   asked from `npm run hub` (login-check.ts); this file only keeps the participant list;
# - each participant gets `<root>/<user>/` with fresh copies of the notebooks and a link to the kit's
#   built lib (read-only), the kit's TypeScript kernel as default, and KURS_*/LLM_* in the kernel;
# - as root every participant is a system user of their own (home mode 700); otherwise all share one;
#   the hub makes and adopts only its own accounts (own_accounts.py) and works in a participant's folder
#   only as that participant (safe_files.py); login form and logout carry an XSRF token (web_guards.py).
import asyncio
import json
import os
import re
import sys
import unicodedata

from jupyterhub.auth import Authenticator
from jupyterhub.handlers.login import LoginHandler
from jupyterhub.spawner import LocalProcessSpawner, SimpleLocalProcessSpawner
from tornado.httpclient import HTTPRequest
from tornado.simple_httpclient import SimpleAsyncHTTPClient

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from own_accounts import ensure_account, name_is_free  # noqa: E402 (the kit's modules beside this file)
from safe_files import copy_as  # noqa: E402
from web_guards import KursLogoutHandler, XsrfLoginMixin  # noqa: E402

with open(os.environ["KURS_HUB_SETTINGS"], encoding="utf-8") as f:
    S = json.load(f)

STATE = S["stateDir"]
PARTICIPANTS_FILE = os.path.join(STATE, "teilnehmende.json")
USER_PREFIX = "kurs-"
# One login at a time: the participant list and --max stay exact while the board is asked.
LOGIN_LOCK = asyncio.Lock()


def client_address(request):
    """The address a login came from: the last X-Forwarded-For entry, which the kit's proxy appends (tornado's
    remote_ip believes an X-Real-Ip header the client sends, so a guesser could pick any address)."""
    forwarded = request.headers.get("X-Forwarded-For", "").split(",")[-1].strip()
    return forwarded or request.remote_ip


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


def save_participants(data):
    tmp = PARTICIPANTS_FILE + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1)
    os.replace(tmp, PARTICIPANTS_FILE)


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
        async with LOGIN_LOCK:
            answer = await ask_login_check(data.get("username", ""), data.get("password", ""), data.get("pin", ""), client_address(handler.request))
            if "problem" in answer:
                handler.kurs_error = answer["problem"]
                return None
            participants = load_participants()
            name, key = answer["name"], answer["key"]
            if key not in participants:
                taken = {p["user"] for p in participants.values()}
                free = lambda user: name_is_free(STATE, S["root"], user, S["isolated"])  # noqa: E731
                participants[key] = {"name": name, "user": user_name_for(name, taken, free)}
                save_participants(participants)
            return participants[key]["user"]


def display_name(user):
    for p in load_participants().values():
        if p["user"] == user:
            return p["name"]
    return user


def copy_notebooks(home, owner):
    """Fresh copies of what the participant does not have yet (existing files are never overwritten),
    placed as the participant (safe_files.py): a link they planted leads nowhere they could not write."""
    wanted = list(S["notebooks"])
    if os.path.exists(os.path.join(STATE, "loesungen-frei")):
        wanted += S["solutions"]
    _, problems = copy_as(owner, home, wanted)
    for problem in problems:
        print(f"[KursHub] {os.path.basename(home)}: {problem}", file=sys.stderr)


def pre_spawn(spawner):
    user = spawner.user.name
    home = os.path.join(S["root"], user)
    owner = ensure_account(STATE, S["root"], user, S["isolated"])
    copy_notebooks(home, owner)
    spawner.environment.update(S["kernelEnv"])
    spawner.environment["KURS_NAME"] = display_name(user)
    spawner.environment["PYTHONPATH"] = os.path.join(os.path.dirname(os.path.abspath(__file__)), "singleuser")  # kurs_host_check
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
# The hub's XSRF cookie (web_guards.py) only for the hub's pages: on "/" it would shadow the `_xsrf` cookie of
# each participant's Notebook server (/user/<name>/), whose POSTs (start a kernel, save) would then fail.
c.JupyterHub.tornado_settings = {"xsrf_cookie_kwargs": {"path": "/hub/"}}
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
