// Generated placeholder until the peer prints the table.
export const AWS_TABLE_ROWS: readonly (readonly [string, number, number, number])[] = [];
