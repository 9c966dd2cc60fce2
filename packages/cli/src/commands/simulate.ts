export async function simulateCommand(_argv: readonly string[]): Promise<number> { return 0; }
