// re2d host check helper: imports a sibling relative to this file.
import { base } from './base.mjs';
export const value = base + 1;
