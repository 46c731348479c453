// Number types the configuration's variables share (environment values are strings, coerced).
import { z } from 'zod';

export const port = z.coerce.number().int().min(0).max(65535);
export const positiveInt = z.coerce.number().int().positive();
