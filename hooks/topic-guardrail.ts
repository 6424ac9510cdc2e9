// Shipped example (HOOKS=topic-guardrail): a user message on a topic this deployment does not discuss ends its turn
// with a reason, and never reaches the model. Topics and their words come from HOOK_GUARDRAIL_TOPICS
// ("topic: word, word; topic: word"); a word matches whole, in any case, and a word ending in * matches as a prefix
// (diagnos* matches diagnosis). Keyword matching, not a classifier: see docs/hooks.md for what that misses.
import { defineHook } from '../core/hooks';

/** What it blocks when HOOK_GUARDRAIL_TOPICS is not set. */
export const DEFAULT_TOPICS =
  'medical advice: diagnos*, prescription*, dosage, symptom*; legal advice: lawsuit*, sue, attorney*';

export interface Topic {
  name: string;
  words: RegExp;
}

/** Parses "topic: word, word; topic: word"; a topic with no words is matched by its own name. */
export function parseTopics(setting: string): Topic[] {
  return setting
    .split(';')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [name, list] = entry.includes(':')
        ? [entry.slice(0, entry.indexOf(':')), entry.slice(entry.indexOf(':') + 1)]
        : [entry, entry];
      const words = list
        .split(',')
        .map((w) => w.trim().toLowerCase())
        .filter(Boolean);
      if (!name!.trim() || !words.length) throw new Error(`HOOK_GUARDRAIL_TOPICS: "${entry}" has no topic or no words`);
      const alternatives = words.map((w) => (w.endsWith('*') ? `${escape(w.slice(0, -1))}\\w*` : escape(w)));
      return { name: name!.trim(), words: new RegExp(`\\b(?:${alternatives.join('|')})\\b`, 'i') };
    });
}

function escape(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
}

export default defineHook({
  name: 'topic-guardrail',
  description: 'Blocks user messages on the topics HOOK_GUARDRAIL_TOPICS lists, with a reason.',
  on: 'userMessage',
  configure: (settings) => parseTopics(settings.HOOK_GUARDRAIL_TOPICS?.trim() || DEFAULT_TOPICS),
  run({ text }, { config }) {
    const topic = config.find((t) => t.words.test(text));
    if (topic) return { block: `I can't help with ${topic.name} here. Please ask about something else.` };
  },
});
