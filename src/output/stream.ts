/** The output stream an engine writes to: a Writable that may say whether a person is watching. */
export type OutStream = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
