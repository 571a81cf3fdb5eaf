// `npm run doctor -- --klassenraum [N]`: is this the machine that can serve the room? JupyterHub, the
// proxy, llama-server, the class server's model, RAM for N participants and the class server (measured
// figures, ../klassenraum/class-sizing.ts), and whether the hub can give each participant an account.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../../lib/config.js";
import { MODEL_CHOICES } from "../../../lib/llm/index.js";
import { findLlamaTools } from "../../dev/llama-build.js";
import type { Runner } from "../../setup.mjs";
import { DEFAULT_HUB_MAX, DEFAULT_MEMORY_MB } from "./args.js";
import { memoryCgroupProblem } from "./limits.js";
import {
  DEFAULT_CLASS_CONTEXT,
  DEFAULT_CLASS_PARALLEL,
  GB,
  LLAMA_8B_SHAPE,
  modelShape,
  PARTICIPANT_DAY_MAX_BYTES,
  participantsThatFit,
  planClassServer,
  roomBytes,
} from "../klassenraum/class-sizing.js";

/** Same shape as scripts/apps/doctor/main.ts's Check (kept apart so doctor.ts loads this file only for --klassenraum). */
export interface KlassenraumCheck {
  id: string;
  title: string;
  status: "ok" | "warn" | "fail";
  detail: string;
  fix?: string;
}

export interface KlassenraumDeps {
  root: string;
  env: NodeJS.ProcessEnv;
  run: Runner;
  memory: () => { total: number; free: number };
  uid: number | undefined;
  /** Where cgroup v2 is mounted (default /sys/fs/cgroup): a memory limit per participant needs its memory controller. */
  cgroupSysfs?: string;
}

const gb = (bytes: number) => `${(bytes / GB).toFixed(1).replace(".", ",")} GB`;

export async function klassenraumChecks(
  d: KlassenraumDeps,
  participants = DEFAULT_HUB_MAX,
): Promise<KlassenraumCheck[]> {
  const checks: KlassenraumCheck[] = [];
  const add = (c: KlassenraumCheck) => checks.push(c);
  const hub = await d.run("jupyterhub", ["--version"], { capture: true });
  add(
    hub.code === 0
      ? { id: "hub", title: "JupyterHub", status: "ok", detail: `Version ${hub.stdout.trim()}` }
      : {
          id: "hub",
          title: "JupyterHub",
          status: "fail",
          detail: "nicht installiert",
          fix: "sudo apt-get install jupyterhub (Debian/Ubuntu) oder python3 -m pip install jupyterhub notebook",
        },
  );
  const proxy = join(d.root, "node_modules", ".bin", "configurable-http-proxy");
  add(
    existsSync(proxy)
      ? { id: "proxy", title: "Proxy (configurable-http-proxy)", status: "ok", detail: "aus node_modules" }
      : {
          id: "proxy",
          title: "Proxy (configurable-http-proxy)",
          status: "fail",
          detail: "fehlt in node_modules",
          fix: "npm run setup",
        },
  );
  const own = d.env.LLAMA_SERVER_BIN;
  const tools = own ? undefined : findLlamaTools();
  add(
    own
      ? {
          id: "llama-server",
          title: "Klassen-Server (llama-server)",
          status: existsSync(own) ? "ok" : "fail",
          detail: `LLAMA_SERVER_BIN=${own}${existsSync(own) ? "" : " fehlt"}`,
          fix: "Pfad in LLAMA_SERVER_BIN prüfen",
        }
      : tools && "bin" in tools
        ? {
            id: "llama-server",
            title: "Klassen-Server (llama-server)",
            status: "ok",
            detail: join(tools.bin, "llama-server"),
          }
        : {
            id: "llama-server",
            title: "Klassen-Server (llama-server)",
            status: "fail",
            detail: "nicht gebaut",
            fix: "npm run llama:build (einmal 10–20 Minuten) oder LLAMA_SERVER_BIN=/pfad/zu/llama-server",
          },
  );
  const model = loadConfig(d.env).llmModelPath;
  const modelBytes = existsSync(model) ? statSync(model).size : 0;
  // Without the file the RAM check plans for the default 8B model.
  const plannedBytes = modelBytes || MODEL_CHOICES[0]!.approxSizeGb * GB;
  add(
    modelBytes > 0
      ? { id: "class-model", title: "Modell des Klassen-Servers", status: "ok", detail: `${model} (${gb(modelBytes)})` }
      : {
          id: "class-model",
          title: "Modell des Klassen-Servers",
          status: "fail",
          detail: `${model} fehlt`,
          fix: "npm run models:pull – oder npm run klassenraum -- --uebung zum Ausprobieren",
        },
  );
  const { total, free } = d.memory();
  const tokens = DEFAULT_CLASS_PARALLEL * DEFAULT_CLASS_CONTEXT;
  const server = planClassServer(
    plannedBytes,
    modelBytes ? await modelShape(model) : LLAMA_8B_SHAPE,
    tokens,
    total,
    participants,
  );
  const need = server.bytes + roomBytes(participants);
  const ramDetail =
    `${gb(free)} frei von ${gb(total)}; ${participants} Teilnehmende brauchen etwa ${gb(need)}: Klassen-Server ${gb(server.bytes)} ` +
    `(${DEFAULT_CLASS_PARALLEL} × ${DEFAULT_CLASS_CONTEXT} Tokens, KV-Cache q8_0${server.repack ? "" : ", --no-repack"}), Hub und Kit ${gb(roomBytes(0))}, ` +
    `je Person bis ${Math.round(PARTICIPANT_DAY_MAX_BYTES / 1024 ** 2)} MB (Teil + Aufgabe offen, zwei MCP-Server)`;
  const fewer = participantsThatFit(total, server.bytes);
  add(
    total < need
      ? {
          id: "class-ram",
          title: "Arbeitsspeicher für die Klasse",
          status: "fail",
          detail: ramDetail,
          fix: `Dieser Rechner reicht für etwa ${fewer} Teilnehmende: --max ${fewer}, den Klassen-Server auf einen eigenen Rechner (dann ${participantsThatFit(total, 0)}), ein kleineres Modell oder mehr RAM`,
        }
      : free < need
        ? {
            id: "class-ram",
            title: "Arbeitsspeicher für die Klasse",
            status: "warn",
            detail: ramDetail,
            fix: "Andere Programme schließen",
          }
        : { id: "class-ram", title: "Arbeitsspeicher für die Klasse", status: "ok", detail: ramDetail },
  );
  add(
    d.uid === 0
      ? {
          id: "accounts",
          title: "Getrennte Konten",
          status: "ok",
          detail: "läuft als root: jede:r Teilnehmende bekommt ein eigenes Konto",
        }
      : {
          id: "accounts",
          title: "Getrennte Konten",
          status: "warn",
          detail: "ohne root teilen sich alle Teilnehmenden ein Konto und sehen die Ordner der anderen",
          fix: "sudo npm run klassenraum",
        },
  );
  const memoryProblem = d.uid === 0 ? memoryCgroupProblem(d.cgroupSysfs, true) : undefined;
  if (d.uid === 0) {
    add(
      memoryProblem
        ? {
            id: "memory-limit",
            title: "Speichergrenze je Teilnehmer:in",
            status: "warn",
            detail: `keine: ${memoryProblem}`,
            fix: "Prozesse, Dateigröße und Platz sind trotzdem begrenzt; für eine Speichergrenze einen Rechner mit cgroup v2 (aktuelles Debian/Ubuntu mit systemd) nehmen",
          }
        : {
            id: "memory-limit",
            title: "Speichergrenze je Teilnehmer:in",
            status: "ok",
            detail: `cgroup v2: je Teilnehmer:in höchstens --arbeitsspeicher (Standard ${DEFAULT_MEMORY_MB} MB)`,
          },
    );
  }
  return checks;
}
