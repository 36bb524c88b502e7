/**
 * Conversational components: `POST /{phone-number-id}/conversational_automation` sets the
 * welcome message switch, ice breakers (`prompts`) and commands; `GET /{phone-number-id}
 * ?fields=conversational_automation` (phone-numbers.ts) reads them back.
 *
 * Limits are Meta's documented ones: up to 4 ice breakers of 80 characters without emoji, up
 * to 30 commands with names of 32 characters and hints of 256. (The v23 YAML still says 3
 * prompts and 30-character names; the public documentation has since raised both.)
 */
import { invalidParameter } from '../graph-errors';
import { ParamReader, isRecord } from '../request-params';
import { route, SUCCESS, type GraphRoute } from './route-kit';

const MAX_PROMPTS = 4;
const MAX_PROMPT_LENGTH = 80;
const MAX_COMMANDS = 30;
const EMOJI = /\p{Extended_Pictographic}/u;

export const automationRoutes: GraphRoute[] = [
  route('phone', 'POST', 'conversational_automation', (context) => {
    const params = context.params();
    const welcome = params.optionalBoolean('enable_welcome_message');
    const prompts = params.optionalArray('prompts', { max: MAX_PROMPTS })?.map((prompt, index) => {
      const path = `prompts[${index}]`;
      if (typeof prompt !== 'string' || prompt.trim() === '') throw invalidParameter(`Param ${path} must be a non-empty string.`);
      if (prompt.length > MAX_PROMPT_LENGTH) throw invalidParameter(`Param ${path} must be at most ${MAX_PROMPT_LENGTH} characters long.`);
      if (EMOJI.test(prompt)) throw invalidParameter(`Param ${path} must not contain emoji.`);
      return prompt;
    });
    const commands = params.optionalArray('commands', { max: MAX_COMMANDS })?.map((command, index) => {
      const path = `commands[${index}]`;
      if (!isRecord(command)) throw invalidParameter(`Param ${path} must be a JSON object.`);
      const reader = ParamReader.of(command, path);
      return {
        command_name: reader.string('command_name', {
          maxLength: 32,
          pattern: /^[A-Za-z0-9_]+$/,
          patternHint: 'may only contain letters, digits and underscores',
        }),
        command_description: reader.string('command_description', { maxLength: 256 }),
      };
    });
    if (welcome === undefined && prompts === undefined && commands === undefined) {
      throw invalidParameter('At least one of enable_welcome_message, prompts, commands is required.');
    }
    const names = new Set<string>();
    for (const command of commands ?? []) {
      if (names.has(command.command_name)) throw invalidParameter(`Param commands has command_name ${command.command_name} twice.`);
      names.add(command.command_name);
    }

    const { automation } = context.node.phone;
    if (welcome !== undefined) automation.enable_welcome_message = welcome;
    if (prompts !== undefined) automation.prompts = prompts;
    if (commands !== undefined) automation.commands = commands;
    return SUCCESS;
  }),
];
