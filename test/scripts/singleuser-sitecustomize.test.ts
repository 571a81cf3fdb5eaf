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

// PR_GET_MEMORY_MERGE, asked by a child the server starts (as its kernels are): 1 where it may share pages.
const MERGE_PROBE = `
import subprocess, sys
child = "import ctypes; print(ctypes.CDLL(None).prctl(68, 0, 0, 0, 0))"
print(subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, env={}).stdout.strip())
`;
const noMerging =
  missing ||
  (spawnSync(PYTHON, ["-c", "import ctypes,sys; sys.exit(ctypes.CDLL(None).prctl(68,0,0,0,0) < 0)"]).status
    ? "a Linux kernel with process-wide KSM (6.4 or newer)"
    : false);

test(
  "KIT_KSM=1 (the hub switched KSM on): the server's children, its kernels, may share pages; without, not",
  { skip: noMerging },
  () => {
    const program = join(dir, "jupyterhub-singleuser");
    writeFileSync(program, MERGE_PROBE);
    const merges = (env: NodeJS.ProcessEnv) =>
      spawnSync(PYTHON, [program], { env: { ...env, PYTHONPATH: SINGLEUSER }, encoding: "utf8" }).stdout.trim();
    assert.equal(merges({ KIT_KSM: "1" }), "1");
    assert.equal(merges({}), "0");
  },
);
