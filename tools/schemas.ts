// Argument schemas several native tools share, so they describe (and the LLM sees) a field the same way.
import { z } from 'zod';

export const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD');
