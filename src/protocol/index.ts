export { type FrameAddress, frameSrc, isWebUrl, newChannel, readFrameAddress } from './address';
export { isFieldName, readSibling, readToFrame, readToPage } from './guards';
export type { Cancel, Command, Config, ErrorInfo, FieldStyles, FontSource, Locale, Sibling, StyleState, ToFrame, ToPage, Tokenize } from './messages';
