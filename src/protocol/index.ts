export { type FrameAddress, frameSrc, isWebUrl, MAX_POST_BODY, newChannel, postTarget, readFrameAddress } from './address';
export { isFieldName, readSibling, readToFrame, readToPage } from './guards';
export type { Cancel, Command, Config, ErrorInfo, FieldStyles, FontSource, Locale, Post, Sibling, StyleState, ToFrame, ToPage, Tokenize } from './messages';
