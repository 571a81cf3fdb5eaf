"""German for the classic Jupyter Notebook 6, as a Notebook server extension of the workshop kit.

Loaded by `npm run workshop` and by every participant's server of `npm run hub` with
`--NotebookApp.nbserver_extensions=kurs_jupyter_de=True` and this folder on PYTHONPATH; nothing is installed
into the system's Python packages. KURS_JUPYTER_DE names the catalog that scripts/apps/workshop/notebook-ui.ts
compiled from de/LC_MESSAGES/*.po (Jed format, the browser-side and the page messages in one table).

Per request, as Notebook itself decides for its own catalogs: the browser's Accept-Language picks the language
(notebook.i18n.combine_translations). German is offered to Notebook's lookup for "de"/"de_DE", so the browser
gets it with the page; the server's page templates translate each `{% trans %}` from the table the same request
was given, so a browser that asks for English keeps English pages and menus.
"""
import json
import os
from functools import lru_cache

from jinja2 import ChoiceLoader, FunctionLoader, pass_context
from notebook import i18n
from tornado.ioloop import IOLoop

LANGUAGES = ("de", "de_DE")


def _jupyter_server_extension_paths():
    return [{"module": "kurs_jupyter_de"}]


def read_catalog(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    return data["locale_data"]["nbjs"]


@lru_cache(maxsize=16)
def request_table(nbjs_translations):
    """The messages one request's browser gets (the JSON Notebook puts into each page)."""
    try:
        return json.loads(nbjs_translations)["locale_data"]["nbjs"]
    except (ValueError, KeyError, TypeError):
        return {}


def translating(original):
    @pass_context
    def gettext(context, message):
        entry = request_table(context.get("nbjs_translations") or "{}").get(message)
        if isinstance(entry, list) and entry and entry[0]:
            return entry[0]
        return original(message)

    return gettext


def translate_hub_button(env):
    """JupyterHub's single-user page adds a "Control Panel" button as plain text: make it a message too."""
    previous = env.loader

    def page(name):
        if name != "page.html":
            return None
        try:
            source, _, _ = previous.get_source(env, name)
        except Exception:  # noqa: BLE001 (no such template: the stock loader answers)
            return None
        return source.replace("Control Panel\n", "{% trans %}Control Panel{% endtrans %}\n")

    env.loader = ChoiceLoader([FunctionLoader(page), previous])


def load_jupyter_server_extension(nbapp):
    path = os.environ.get("KURS_JUPYTER_DE", "")
    try:
        table = read_catalog(path)
    except (OSError, ValueError, KeyError) as error:
        nbapp.log.warning("Deutsche Oberfläche nicht geladen (%s): %s", path or "KURS_JUPYTER_DE fehlt", error)
        return
    for language in LANGUAGES:
        i18n.TRANSLATIONS_CACHE["nbjs"][language] = table
    env = nbapp.web_app.settings["jinja2_env"]
    env.globals["gettext"] = translating(env.globals["gettext"])  # `_` and `{% trans %}` resolve it per call
    if "Control Panel" in table:
        # JupyterHub adds its page after the extensions are loaded: wrap it once the server runs.
        IOLoop.current().add_callback(translate_hub_button, env)
    nbapp.log.info("Deutsche Oberfläche für Browser mit Sprache Deutsch: %d Meldungen (%s)", len(table) - 1, path)
