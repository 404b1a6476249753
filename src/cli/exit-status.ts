/** The exit codes (CLI.md), apart from the error mapping so that the bin's start can use them without loading it. */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  interrupted: 130,
} as const;
