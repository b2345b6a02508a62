// re2d host check helper.
export const base = 41;
