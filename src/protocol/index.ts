export { type FrameAddress, frameSrc, isWebUrl, newChannel, readFrameAddress } from './address';
export { MAX_POST_BODY, postTarget } from './post-target';
export { isFieldName, readSibling, readToFrame, readToPage } from './guards';
export type { Cancel, Command, Config, ErrorInfo, FieldStyles, FontSource, Locale, Post, Sibling, StyleState, ToFrame, ToPage, Tokenize } from './messages';
