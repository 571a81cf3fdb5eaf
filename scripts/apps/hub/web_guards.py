# The hub's own forms made safe (issue 43): Debian's JupyterHub 3.0 predates the XSRF check on the login
# POST (4.1) and logs out on a plain GET, so any page a participant opens could log them in as someone
# else or out. Here the login form and the logout carry tornado's XSRF token (cookie `_xsrf` + hidden field
# `_xsrf`), and logging out takes a POST: GET /hub/logout only shows a German page with the button.
from jupyterhub.handlers.login import LoginHandler, LogoutHandler
from tornado import web

STALE_FORM = "Die Seite war zu alt oder kam nicht vom Hub – bitte neu laden und noch einmal versuchen."


class XsrfFormMixin:
    """Puts `xsrf_token` into every page's template namespace and checks it on a form's POST."""

    @property
    def template_namespace(self):
        namespace = super().template_namespace
        namespace["xsrf_token"] = self.xsrf_token.decode()
        return namespace

    def form_xsrf_ok(self):
        try:
            self.check_xsrf_cookie()
            return True
        except web.HTTPError:
            return False


class XsrfLoginMixin(XsrfFormMixin):
    """Before LoginHandler in the bases: a login POST without the page's token is refused (403, German)."""

    async def post(self):
        if not self.form_xsrf_ok():
            self.log.warning("Login refused: missing or wrong XSRF token")
            self.kurs_error = STALE_FORM
            self.set_status(403)
            self.finish(await self._render(username=self.get_argument("username", "", strip=True)))
            return
        await super().post()


class KursLogoutHandler(XsrfFormMixin, LogoutHandler):
    """GET: a page with the 'Abmelden' button (a link or an <img> elsewhere logs nobody out); POST: logs out."""

    async def get(self):
        if self.current_user is None:
            self.redirect(self.settings["login_url"])
            return
        self.finish(await self.render_template("abmelden.html"))

    async def post(self):
        if not self.form_xsrf_ok():
            raise web.HTTPError(403, STALE_FORM)
        await super().get()
