/** The shells `swapx completion` writes for, and the hidden command their scripts call: what registering the command needs, apart from the script generator. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** The hidden command the scripts call to list profile names. */
export const PROFILES_COMMAND = '__profiles';
