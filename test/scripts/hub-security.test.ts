// The Klassenraum-Hub against a curious participant and a page on the same Wi-Fi (issue 43), with a real
// JupyterHub (`npm run hub` as a subprocess, as root: one system user per participant):
// - links a participant plants in their folder (a notebook name → a new file in a root-owned folder,
//   `.cache` and `loesungen` → that folder) change nothing outside the folder after a respawn and after
//   `--loesungen-freigeben` (before: root wrote through them and chowned the folder to the participant);
// - name + class code no longer open another participant's account: the PIN chosen at the first login is
//   needed (before: " anna " got kurs-anna's notebooks);
// - a system user `kurs-…` the hub did not make is not adopted, and `--aufraeumen` leaves it and the
//   instructor's own file in --root alone (before: usermod --home, then userdel; rm -rf of --root);
// - the login POST needs the page's XSRF token, logout takes a POST, and a participant's Jupyter refuses a
//   foreign Host header (before: JupyterHub 3.0 checked none of these).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  existsSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { APIRequestContext } from "playwright-core";
import {
  hubTestFolder,
  hubTestSkip,
  hubUser,
  postLogIn,
  startHubProcess,
  xsrfToken,
  type HubProcess,
} from "../helpers/hub-process.js";
import { runCommand } from "../helpers/run-script.js";

const CODE = "hub-sicher-17";
const ANNA = { name: "Anna Sicher", pin: "anna-4711" };
const BEN = { name: "Ben Sicher", pin: "ben-0815" };
const FREMD = { name: "Fremd Sicher", pin: "fremd-123" };
const FOREIGN = "kurs-fremd-sicher"; // a system user of the machine, not the hub's
const skip = hubTestSkip({ root: true });
const folder = hubTestFolder("hub-sicher-");
const { dir, root } = folder;
const victim = join(dir, "root-ordner"); // stands for /etc/profile.d: root's, not the participants'
const rag = join(dir, "rag"); // the instructor's RAG indexes, which every participant gets a copy of
const instructorFile = join(root, "anleitung-der-kursleitung.txt");
let hub: HubProcess | undefined;
let api: APIRequestContext | undefined;

const getent = (user: string) => spawnSync("getent", ["passwd", user], { encoding: "utf8" }).stdout.trim();
const home = (user: string) => join(root, user);
/** kurs-anna-sicher etc., or another name where such an account exists that this hub did not make. */
const userOf = (person: { name: string }) => hubUser(root, person.name);
const startHub = () => startHubProcess(["--root", root, "--code", CODE], { RAG_CACHE_DIR: rag });

/** Everything about the victim folder an attack could change: owner, mode and each entry with its owner and content. */
function victimState(): string {
  const entries = readdirSync(victim).map((f) => {
    const st = lstatSync(join(victim, f));
    return `${f} ${st.uid}:${st.gid} ${st.mode.toString(8)} ${st.isFile() ? readFileSync(join(victim, f), "utf8") : ""}`;
  });
  const st = statSync(victim);
  return [`. ${st.uid}:${st.gid} ${st.mode.toString(8)}`, ...entries].join("\n");
}

async function newContext(): Promise<APIRequestContext> {
  const { request } = await import("playwright-core");
  return request.newContext();
}

/** Logs in (a new browser, so to speak) and waits until the participant's own Jupyter answers (after the hub's pre_spawn work). */
async function logInAndWait(person: { name: string; pin: string }): Promise<APIRequestContext> {
  const context = await newContext();
  const login = await postLogIn(context, hub!.url, { username: person.name, password: CODE, pin: person.pin });
  assert.equal(login.status, 302, `login of ${person.name}: ${login.text.slice(0, 400)}`);
  await context.get(new URL("/hub/spawn", hub!.url).href).catch(() => undefined); // starts the server, as the redirect would
  const user = userOf(person);
  const tree = new URL(`/user/${user}/tree`, hub!.url).href;
  for (let i = 0; i < 240; i++) {
    const res = await context.get(tree).catch(() => undefined); // through the hub's OAuth: the server's cookie lands in `context`
    if (res?.status() === 200 && res.url().startsWith(tree)) return context;
    await new Promise((r) => setTimeout(r, 500));
  }
  assert.fail(`${user}'s Jupyter did not start: ${hub!.output().slice(-2000)}`);
}

/** A GET through the hub's proxy with a Host header of our choosing (a DNS-rebinding page sends its own). */
function statusWithHost(path: string, host: string): Promise<number> {
  const url = new URL(path, hub!.url);
  return new Promise((resolve, reject) => {
    httpRequest({ host: url.hostname, port: url.port, path: url.pathname, headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on("error", reject)
      .end();
  });
}

before(async () => {
  if (skip) return;
  mkdirSync(victim, { mode: 0o755 });
  writeFileSync(join(victim, "geheim.sh"), "echo root\n", { mode: 0o644 });
  mkdirSync(rag);
  writeFileSync(join(rag, "reise-index.json"), "{}\n");
  mkdirSync(root, { mode: 0o755 });
  writeFileSync(instructorFile, "Ablauf des Tages\n");
  if (!getent(FOREIGN))
    spawnSync("useradd", ["--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", FOREIGN], {
      stdio: "inherit",
    });
  hub = await startHub();
});

after(async () => {
  await api?.dispose();
  await hub?.stop();
  await folder.remove(() => getent(FOREIGN) && spawnSync("userdel", [FOREIGN]));
});

test(
  "links planted in a participant's folder change nothing outside it after a respawn and after --loesungen-freigeben",
  { skip },
  async () => {
    const first = await logInAndWait(ANNA);
    const ben = await logInAndWait(BEN);
    const anna = home(userOf(ANNA));
    assert.ok(existsSync(join(anna, "10-teil-1-lokales-llm.ipynb")), "the notebooks were copied");
    assert.equal(
      readFileSync(join(anna, ".cache", "rag", "reise-index.json"), "utf8"),
      "{}\n",
      "the RAG indexes were copied",
    );
    const { uid, gid } = statSync(anna);
    assert.notEqual(uid, 0);
    const before = victimState();

    // What Anna's kernel can do in her own folder: replace files and folders by links.
    assert.equal(await hub!.stop(), 0);
    const plant = (name: string, target: string) => {
      rmSync(join(anna, name), { recursive: true, force: true });
      symlinkSync(target, join(anna, name));
      lchownSync(join(anna, name), uid, gid); // the link is hers
    };
    plant("10-teil-1-lokales-llm.ipynb", join(victim, "neu.sh")); // a notebook name → a new file in root's folder
    plant(".cache", victim); // the RAG copy and .cache folders → root's folder
    plant("loesungen", victim); // the solutions → root's folder

    hub = await startHub();
    await first.dispose();
    api = await logInAndWait(ANNA); // pre_spawn copies again (the respawn)
    assert.equal(victimState(), before, "the respawn changed nothing in root's folder");
    assert.ok(existsSync(join(anna, "00-start.ipynb")));

    const release = await runCommand("hub", ["--loesungen-freigeben", "--root", root]);
    assert.match(release.stdout, /Lösungen freigegeben: 2 Teilnehmende/, release.stdout + release.stderr);
    assert.equal(victimState(), before, "--loesungen-freigeben changed nothing in root's folder");
    // Ben's folder got them, as Ben's.
    const solution = join(home(userOf(BEN)), "loesungen", "loesung-1-lokales-llm.ipynb");
    assert.equal(statSync(solution).uid, statSync(home(userOf(BEN))).uid);
    assert.equal(statSync(join(home(userOf(BEN)), "loesungen")).uid, statSync(home(userOf(BEN))).uid);
    await ben.dispose();
  },
);

test(
  "name + class code do not open another participant's account: the PIN is needed; wrong PINs are refused in German",
  { skip },
  async () => {
    const annaNotebooks = new URL(`/user/${userOf(ANNA)}/api/contents`, hub!.url).href;
    for (const pin of ["", "0000"]) {
      const other = await newContext();
      const login = await postLogIn(other, hub!.url, { username: " anna sicher ", password: CODE, pin });
      assert.equal(login.status, 200, `no redirect into Anna's account (PIN "${pin}")`);
      assert.match(
        login.text,
        pin === ""
          ? /„Anna Sicher“ ist schon angemeldet – bitte deine PIN eingeben/
          : /Die PIN für „Anna Sicher“ stimmt nicht/,
      );
      const api_ = await other.get(annaNotebooks);
      assert.equal(api_.status(), 403, "Anna's files are not listed");
      const tree = await other.get(new URL(`/user/${userOf(ANNA)}/tree`, hub!.url).href);
      assert.doesNotMatch(await tree.text(), /10-teil-1-lokales-llm|00-start\.ipynb/, "none of Anna's notebooks");
      assert.ok(tree.url().includes("/hub/login"), `sent to the login page, not into Anna's folder: ${tree.url()}`);
      await other.dispose();
    }
    const listed = await runCommand("hub", ["--teilnehmende", "--root", root]);
    assert.match(listed.stdout, new RegExp(`Anna Sicher\\s+${userOf(ANNA)}\\s+PIN gesetzt`), listed.stdout);
    // A running session's cookie keeps working across a PIN reset; the next login chooses a new PIN.
    const reset = await runCommand("hub", ["--pin-vergessen", "anna sicher", "--root", root]);
    assert.match(reset.stdout, /PIN von „Anna Sicher“ zurückgesetzt/, reset.stdout + reset.stderr);
    assert.equal((await api!.get(annaNotebooks)).status(), 200, "Anna's open session still works");
    const again = await newContext();
    assert.equal(
      (await postLogIn(again, hub!.url, { username: "Anna Sicher", password: CODE, pin: "neu-4712" })).status,
      302,
    );
    await again.dispose();
    const unknown = await runCommand("hub", ["--pin-vergessen", "Niemand", "--root", root]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /„Niemand“ ist in .* nicht angemeldet/);
  },
);

test(
  "the login POST needs the page's XSRF token; logout is a POST; a participant's Jupyter refuses a foreign Host",
  { skip },
  async () => {
    const bare = await newContext();
    const noToken = await bare.post(hub!.url, {
      form: { username: "Carla Sicher", password: CODE, pin: "carla-123" },
      maxRedirects: 0,
    });
    assert.equal(noToken.status(), 403, "a form from another page cannot log anyone in");
    assert.match(await noToken.text(), /Die Seite war zu alt oder kam nicht vom Hub/);
    await bare.dispose();

    const tree = `/user/${userOf(ANNA)}/tree`;
    assert.equal(await statusWithHost(tree, "rebind.example:8000"), 403, "DNS rebinding: a foreign Host is refused");
    assert.equal(
      await statusWithHost(tree, new URL(hub!.url).host),
      302,
      "the hub's own address is served (on to the hub's login)",
    );

    const homeUrl = new URL("/hub/home", hub!.url).href;
    const logout = new URL("/hub/logout", hub!.url).href;
    // The hub's XSRF cookie stays on the hub's pages: on "/" it would overwrite the Notebook server's own `_xsrf`
    // (also on "/"), and the Notebook's POSTs (start a kernel, save) would fail.
    const fresh = await newContext();
    await xsrfToken(fresh, hub!.url);
    const hubXsrf = (await fresh.storageState()).cookies.filter((c) => c.name === "_xsrf");
    assert.deepEqual(
      hubXsrf.map((c) => c.path),
      ["/hub/"],
    );
    await fresh.dispose();
    const page = await (await api!.get(logout)).text(); // a link or <img> to /hub/logout ...
    assert.match(page, /id="logout_submit"/);
    assert.ok((await api!.get(homeUrl, { maxRedirects: 0 })).status() === 200, "... logs nobody out");
    assert.equal(
      (await api!.post(logout, { maxRedirects: 0 })).status(),
      403,
      "a logout POST without the token is refused",
    );
    const _xsrf = await xsrfToken(api!, logout);
    assert.equal((await api!.post(logout, { form: { _xsrf }, maxRedirects: 0 })).status(), 302);
    assert.equal((await api!.get(homeUrl, { maxRedirects: 0 })).status(), 302, "logged out");
  },
);

test(
  "a foreign kurs-… account is not adopted; --aufraeumen deletes only the hub's accounts, folders and state",
  { skip },
  async () => {
    const foreignBefore = getent(FOREIGN);
    await (await logInAndWait(FREMD)).dispose();
    const fremd = userOf(FREMD);
    assert.match(fremd, new RegExp(`^${FOREIGN}-\\d+$`), "another name, not the machine's kurs-fremd-sicher");
    assert.equal(getent(FOREIGN), foreignBefore, "the machine's own account is untouched (no usermod --home)");
    assert.ok(getent(fremd), "the participant got an account of the hub's own");
    const users = [ANNA, BEN, FREMD].map(userOf);

    assert.equal(await hub!.stop(), 0);
    hub = undefined;
    const clean = await runCommand("hub", ["--aufraeumen", "--root", root]);
    assert.equal(clean.code, 0, clean.stdout + clean.stderr);
    assert.match(clean.stdout, /Aufgeräumt: 3 Konten/);
    for (const user of users) {
      assert.equal(getent(user), "", `${user} deleted`);
      assert.ok(!existsSync(home(user)), `${user}'s folder deleted`);
    }
    assert.equal(getent(FOREIGN), foreignBefore, "the foreign account survives --aufraeumen");
    assert.equal(
      readFileSync(instructorFile, "utf8"),
      "Ablauf des Tages\n",
      "the instructor's file in --root survives",
    );
    assert.ok(!existsSync(join(root, ".hub")), "the hub's state is gone");
  },
);
