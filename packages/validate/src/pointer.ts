// JSON Pointer segments (RFC 6901): `~` and `/` in keys are escaped as `~0` and `~1`.
export const pointerSegment = (key: string): string => (key.includes("~") || key.includes("/") ? key.replace(/~/g, "~0").replace(/\//g, "~1") : key);
