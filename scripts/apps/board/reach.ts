// Who can reach the board: bound to loopback (the default), the participants' laptops cannot. The page
// and the console then say so in German, with the restart command for the course network (this machine's
// own addresses filled in where it has any).
import { networkInterfaces } from "node:os";

/** This machine's IPv4 addresses in a network (not loopback), e.g. ["192.168.1.20"]. */
export function lanAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((e) => e.family === "IPv4" && !e.internal)
    .map((e) => e.address);
}

/** The command that opens the board to the course network. */
export function courseNetworkCommand(addresses = lanAddresses()): string {
  return `npm run board -- --host 0.0.0.0 --allowed-host ${addresses[0] ?? "<Adresse-dieses-Rechners>"}`;
}

/** The warning for a board bound to loopback: what is wrong and how to start it for the class. */
export function loopbackWarning(
  host: string,
  addresses = lanAddresses(),
): { problem: string; fix: string; command: string } {
  return {
    command: courseNetworkCommand(addresses),
    problem: `Das Board läuft nur auf diesem Rechner (${host}) – die Laptops der Teilnehmenden können es so nicht erreichen.`,
    fix:
      `Für den Kurs neu starten mit: ${courseNetworkCommand(addresses)}` +
      (addresses.length > 1 ? ` (oder eine andere Adresse dieses Rechners: ${addresses.slice(1).join(", ")})` : "") +
      ". Laufen die Notebooks auf diesem Rechner selbst, ist es so richtig.",
  };
}
