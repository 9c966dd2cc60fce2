// Whether a command's output gets colour: one rule for every command. The painting itself is picocolors'
// (createColors(enabled)) in each package; its own detection is not used because it turns colour on
// whenever CI is set, which would put escape codes into files that CI redirects output to.
export interface ColorTarget {
  readonly isTTY?: boolean;
}

/**
 * FORCE_COLOR set (anything but `0` or `false`) turns colour on, also for a pipe or a file (it takes
 * precedence, as in Node itself); else NO_COLOR set and not empty (no-color.org) turns it off; else colour
 * when the stream is a terminal that is not TERM=dumb.
 */
export function colorEnabled(stream: ColorTarget = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  return stream.isTTY === true && env.TERM !== "dumb";
}
