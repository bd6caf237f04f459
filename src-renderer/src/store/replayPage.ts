/** Events per `session.replay` page when a conversation opens (shared with the open-session benchmark). */
export const REPLAY_PAGE = 2_000;
