/**
 * The pending flow's code, fetched when the payer presses Pay (a form's tokenize or postCvv), so that a
 * payment that comes back pending shows its OTP form without a trip more. Set by `handlePending`'s module,
 * so only where a page's bundle has it; a fetch that fails is asked for again by `handlePending`.
 */
export const atPay: { warm?: () => void } = {};
