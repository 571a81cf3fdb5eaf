// The class board's command line inside `npm run klassenraum` (kept apart so a test can check it without
// starting the room).

/** The board's arguments in the room; `newInstructorLink` only at the first start (a restart keeps the link). */
export function roomBoardArgs(o: {
  port: number;
  code: string;
  roomUrl: string;
  data: string | undefined;
  newInstructorLink: boolean;
}): string[] {
  return [
    "--port",
    String(o.port),
    "--code",
    o.code,
    "--raum",
    o.roomUrl,
    ...(o.data ? ["--data", o.data] : []),
    ...(o.newInstructorLink ? ["--neuer-kursleitungs-link"] : []),
  ];
}
