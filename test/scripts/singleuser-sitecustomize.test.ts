// scripts/apps/hub/singleuser/sitecustomize.py, in Debian's Python as the hub runs it: a participant's Jupyter
// server (its program is jupyterhub-singleuser) starts without gi and IPython, and trashes with send2trash's own
// freedesktop.org backend; every other Python on that PYTHONPATH (a Python kernel the server starts) keeps both.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";

const PYTHON = "/usr/bin/python3";
const SINGLEUSER = join(findProjectRoot(), "scripts", "apps", "hub", "singleuser");
const missing =
  spawnSync(PYTHON, ["-c", "import IPython, send2trash"]).status === 0
    ? false
    : "Debian's Python with IPython and send2trash (apt install jupyterhub)";
const dir = mkdtempSync(join(tmpdir(), "kit-sitecustomize-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const PROBE = `
import importlib, json
def imports(name):
    try:
        importlib.import_module(name)
        return True
    except ImportError:
        return False
import send2trash
print(json.dumps({"gi": imports("gi"), "IPython": imports("IPython"), "trash": send2trash.send2trash.__module__}))
`;

function probe(program: string): { gi: boolean; IPython: boolean; trash: string } {
  writeFileSync(program, PROBE);
  const run = spawnSync(PYTHON, [program], { env: { ...process.env, PYTHONPATH: SINGLEUSER }, encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as { gi: boolean; IPython: boolean; trash: string };
}

test("the participant's Jupyter server: no gi, no IPython, send2trash's own trash", { skip: missing }, () => {
  assert.deepEqual(probe(join(dir, "jupyterhub-singleuser")), {
    gi: false,
    IPython: false,
    trash: "send2trash.plat_other",
  });
});

test("any other Python on the same PYTHONPATH (a Python kernel) keeps IPython", { skip: missing }, () => {
  const kernel = probe(join(dir, "ipykernel_launcher.py"));
  assert.equal(kernel.IPython, true);
});
